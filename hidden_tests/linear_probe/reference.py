"""Trusted reference for `linear_probe`: ridge regression to one-hot targets on frozen features.

Everything in float64. The standardisation statistics come from the training
features only and the fit sees training labels only, so a test sample's
prediction depends on nothing but the training set and its own features.
"""
import numpy as np


def _check(train_features, train_labels, test_features, test_labels, num_classes, l2):
    for name, x in (("train_features", train_features), ("test_features", test_features)):
        if not isinstance(x, np.ndarray) or x.ndim != 2 or x.shape[0] < 1:
            raise ValueError(f"{name} must be a 2-D array with at least one row")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError(f"feature widths differ: {train_features.shape[1]} vs {test_features.shape[1]}")
    if isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)) or num_classes < 1:
        raise ValueError(f"num_classes must be a positive int, got {num_classes!r}")
    for name, labels, rows in (("train_labels", train_labels, train_features.shape[0]),
                               ("test_labels", test_labels, test_features.shape[0])):
        if not isinstance(labels, np.ndarray) or labels.shape != (rows,) or not np.issubdtype(labels.dtype, np.integer):
            raise ValueError(f"{name} must be a 1-D int array with one label per row ({rows})")
        if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
            raise ValueError(f"{name} must lie in [0, {num_classes})")
    if isinstance(l2, bool) or not isinstance(l2, (int, float)) or not l2 > 0:
        raise ValueError(f"l2 must be a number > 0, got {l2!r}")


def scores(train_features, train_labels, test_features, num_classes, l2):
    """X_test W + b, (n_test, num_classes), in float64."""
    train = train_features.astype(np.float64)
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    std = np.where(std == 0, 1.0, std)
    x = (train - mean) / std
    targets = np.eye(num_classes)[train_labels]
    weights = np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ targets)
    bias = targets.mean(axis=0)
    return (test_features.astype(np.float64) - mean) / std @ weights + bias


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    _check(train_features, train_labels, test_features, test_labels, num_classes, l2)
    predictions = scores(train_features, train_labels, test_features, int(num_classes), float(l2)).argmax(axis=1)
    return {"predictions": predictions.astype(np.int64), "accuracy": float(np.mean(predictions == test_labels))}
