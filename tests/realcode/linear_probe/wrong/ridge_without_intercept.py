"""Ridge(fit_intercept=False) on the standardised features: no bias at all.

Adapted from: scikit-learn/scikit-learn, sklearn/linear_model/_ridge.py (Ridge with fit_intercept=False)
expect: wrong_answer
mistake: no_intercept
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
    train = train_features.astype(np.float64)
    mean, std = train.mean(axis=0), train.std(axis=0)
    std = np.where(std == 0, 1.0, std)
    x = (train - mean) / std
    coef = np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ np.eye(num_classes)[train_labels])
    predictions = ((test_features - mean) / std @ coef).argmax(axis=1)
    return {"predictions": predictions, "accuracy": float(np.mean(predictions == test_labels))}
