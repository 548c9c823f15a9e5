"""Ridge's normal equations solved with SciPy's Cholesky factorisation (the matrix is symmetric positive definite for l2 > 0).

Adapted from: scipy/scipy, scipy/linalg/_decomp_cholesky.py (cho_factor / cho_solve) as scikit-learn's _solve_cholesky uses scipy.linalg.solve(..., assume_a="pos") in sklearn/linear_model/_ridge.py; one-hot targets by np.eye, so labels are indexed as given
expect: accepted
"""
import numpy as np
from scipy.linalg import cho_factor, cho_solve


def _standardiser(train):
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    std[std == 0] = 1.0
    return lambda x: (x.astype(np.float64) - mean) / std


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if not (train_features.ndim == test_features.ndim == 2):
        raise ValueError("features must be 2-D")
    if train_features.shape[0] == 0 or test_features.shape[0] == 0:
        raise ValueError("empty train or test set")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("feature widths differ")
    if train_labels.shape != train_features.shape[:1] or test_labels.shape != test_features.shape[:1]:
        raise ValueError("labels do not match the features")
    if min(train_labels.min(), test_labels.min()) < 0 or max(train_labels.max(), test_labels.max()) >= num_classes:
        raise ValueError("label out of range")
    if not l2 > 0:
        raise ValueError("l2 must be > 0")
    standardise = _standardiser(train_features.astype(np.float64))
    x = standardise(train_features)
    y = np.eye(num_classes)[train_labels]
    weights = cho_solve(cho_factor(x.T @ x + l2 * np.eye(x.shape[1])), x.T @ y)
    scores = standardise(test_features) @ weights + y.mean(axis=0)
    predictions = scores.argmax(axis=1)
    return {"predictions": predictions, "accuracy": float(np.mean(predictions == test_labels))}
