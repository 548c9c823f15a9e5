import numpy as np


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2:
        raise ValueError("features must be 2-D")
    if len(train_features) == 0 or len(test_features) == 0:
        raise ValueError("need at least one train and one test sample")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("train and test features have different widths")
    if train_labels.shape != (len(train_features),) or test_labels.shape != (len(test_features),):
        raise ValueError("one label per sample")
    for labels in (train_labels, test_labels):
        if labels.min() < 0 or labels.max() >= num_classes:
            raise ValueError("label out of range")
    if l2 <= 0:
        raise ValueError("l2 must be positive")

    train = train_features.astype(np.float64)
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    std[std == 0] = 1.0
    x = (train - mean) / std
    y = np.eye(num_classes)[train_labels]
    w = np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ y)
    b = y.mean(axis=0)
    scores = (test_features.astype(np.float64) - mean) / std @ w + b
    predictions = scores.argmax(axis=1)
    return {"predictions": predictions, "accuracy": float((predictions == test_labels).mean())}
