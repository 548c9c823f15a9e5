"""RidgeClassifier's targets in {-1, 1} with an intercept: the scores are 2s - 1, the same argmax.

Adapted from: scikit-learn/scikit-learn, sklearn/linear_model/_ridge.py (RidgeClassifier, LabelBinarizer(pos_label=1, neg_label=-1))
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
    train = train_features.astype(np.float64)
    mean, std = train.mean(axis=0), train.std(axis=0)
    std[std == 0] = 1.0
    x = (train - mean) / std
    y = -np.ones((len(train), num_classes))
    y[np.arange(len(train)), train_labels] = 1.0
    y_mean = y.mean(axis=0)
    w = np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ (y - y_mean))
    scores = ((test_features.astype(np.float64) - mean) / std) @ w + y_mean
    predictions = np.argmax(scores, axis=1).astype(np.int64)
    return {"predictions": predictions, "accuracy": float((predictions == test_labels).mean())}
