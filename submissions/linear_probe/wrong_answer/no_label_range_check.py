import numpy as np


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2 or train_features.shape[1] != test_features.shape[1]:
        raise ValueError("features must be (n, d) with the same d")
    if len(train_labels) != len(train_features) or len(test_labels) != len(test_features):
        raise ValueError("one label per row")
    if l2 <= 0:
        raise ValueError("l2 must be > 0")
    mean, std = train_features.mean(axis=0), train_features.std(axis=0)
    std[std == 0] = 1.0
    x = (train_features - mean) / std
    y = np.eye(num_classes)[train_labels]
    w = np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ y)
    predictions = ((test_features - mean) / std @ w + y.mean(axis=0)).argmax(axis=1)
    return {"predictions": predictions, "accuracy": float((predictions == test_labels).mean())}
