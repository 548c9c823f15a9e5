import numpy as np


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2 or len(train_features) < 1 or len(test_features) < 1:
        raise ValueError("features must be non-empty 2-D arrays")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("feature widths differ")
    if train_labels.shape != (len(train_features),) or test_labels.shape != (len(test_features),):
        raise ValueError("labels do not match the features")
    if num_classes < 1 or train_labels.min() < 0 or test_labels.min() < 0 \
            or train_labels.max() >= num_classes or test_labels.max() >= num_classes:
        raise ValueError("labels out of range")
    if l2 <= 0:
        raise ValueError("l2 must be > 0")
    train = train_features.astype(np.float64)
    mean, std = train.mean(axis=0), train.std(axis=0)
    std[std == 0] = 1.0
    X = (train - mean) / std
    Xt = (test_features.astype(np.float64) - mean) / std
    Y = np.eye(num_classes, dtype=np.float32)[train_labels]
    A = (X.T @ X + l2 * np.eye(X.shape[1])).astype(np.float32)
    W = np.linalg.solve(A, (X.T @ Y).astype(np.float32))
    scores = Xt @ W + Y.mean(axis=0)
    pred = scores.argmax(axis=1)
    return {"predictions": pred.astype(np.int64), "accuracy": float(np.mean(pred == test_labels))}
