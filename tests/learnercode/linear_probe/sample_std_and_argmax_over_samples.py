import numpy as np


def _validate(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2:
        raise ValueError("features must be 2-D")
    if train_features.shape[0] < 1 or test_features.shape[0] < 1:
        raise ValueError("empty feature set")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("feature widths differ")
    if train_labels.shape != (train_features.shape[0],) or test_labels.shape != (test_features.shape[0],):
        raise ValueError("one label per row")
    if num_classes < 1:
        raise ValueError("num_classes must be positive")
    for labels in (train_labels, test_labels):
        if labels.min() < 0 or labels.max() >= num_classes:
            raise ValueError("label out of range")
    if l2 <= 0:
        raise ValueError("l2 must be positive")


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    _validate(train_features, train_labels, test_features, test_labels, num_classes, l2)
    X = train_features.astype(np.float64)
    mean = X.mean(axis=0)
    std = X.std(axis=0, ddof=1)
    std = np.where(std == 0, 1.0, std)
    X = (X - mean) / std
    Xt = (test_features.astype(np.float64) - mean) / std
    Y = np.eye(num_classes)[train_labels]
    W = np.linalg.solve(X.T @ X + l2 * np.eye(X.shape[1]), X.T @ Y)
    b = Y.mean(axis=0)
    scores = Xt @ W + b
    predictions = scores.argmax(axis=0)
    return {"predictions": predictions.astype(np.int64), "accuracy": float(np.mean(predictions == test_labels))}
