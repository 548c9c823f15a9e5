import numpy as np


def _check(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2 or train_features.shape[1] != test_features.shape[1]:
        raise ValueError("features must be (n, d) with the same d")
    if len(train_features) == 0 or len(test_features) == 0:
        raise ValueError("empty set")
    if train_labels.shape != (len(train_features),) or test_labels.shape != (len(test_features),):
        raise ValueError("one label per row")
    for labels in (train_labels, test_labels):
        if labels.min() < 0 or labels.max() >= num_classes:
            raise ValueError("label out of range")
    if l2 <= 0:
        raise ValueError("l2 must be > 0")


def _ridge(x, labels, num_classes, l2):
    y = np.eye(num_classes)[labels]
    return np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ y), y.mean(axis=0)


def _stats(features):
    std = features.std(axis=0)
    std[std == 0] = 1.0
    return features.mean(axis=0), std


def _result(scores, test_labels):
    predictions = scores.argmax(axis=1)
    return {"predictions": predictions, "accuracy": float((predictions == test_labels).mean())}



def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    _check(train_features, train_labels, test_features, test_labels, num_classes, l2)
    train, test = train_features.astype(np.float64), test_features.astype(np.float64)
    mean, std = _stats(train)
    w, _ = _ridge((train - mean) / std, train_labels, num_classes, l2)
    b = np.full(num_classes, 1.0 / num_classes)   # assume balanced classes
    return _result((test - mean) / std @ w + b, test_labels)
