"""Standardise with (x - mean) / (std + 1e-8), as many probing scripts do, then closed-form ridge.

Adapted from: facebookresearch/dino, eval_linear.py (features standardised before the linear head), closed form instead of SGD
expect: accepted
"""
import numpy as np


def _check(train_features, train_labels, test_features, test_labels, num_classes, l2):
    for x in (train_features, test_features):
        if not isinstance(x, np.ndarray) or x.ndim != 2 or len(x) < 1:
            raise ValueError("features must be non-empty 2-D arrays")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("feature widths differ")
    for labels, x in ((train_labels, train_features), (test_labels, test_features)):
        if not isinstance(labels, np.ndarray) or labels.shape != (len(x),) or labels.dtype.kind not in "iu":
            raise ValueError("one int label per row")
        if labels.min() < 0 or labels.max() >= num_classes:
            raise ValueError("label out of range")
    if not l2 > 0:
        raise ValueError("l2 must be > 0")


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    _check(train_features, train_labels, test_features, test_labels, num_classes, l2)
    train, test = train_features.astype(np.float64), test_features.astype(np.float64)
    mean = train.mean(axis=0)
    std = np.sqrt(((train - mean) ** 2).mean(axis=0))
    x, x_test = (train - mean) / (std + 1e-8), (test - mean) / (std + 1e-8)
    y = np.eye(num_classes)[train_labels]
    w = np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ y)
    predictions = (x_test @ w + y.mean(axis=0)).argmax(axis=1)
    return {"predictions": predictions, "accuracy": float(np.mean(predictions == test_labels))}
