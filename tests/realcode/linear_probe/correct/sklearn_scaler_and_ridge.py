"""StandardScaler fitted on the training set, then Ridge(alpha=l2, fit_intercept=True) on one-hot targets.

Adapted from: scikit-learn/scikit-learn, sklearn/preprocessing/_data.py (StandardScaler, _handle_zeros_in_scale) and sklearn/linear_model/_ridge.py (_solve_cholesky, _set_intercept)
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


class StandardScaler:
    def fit(self, x):
        self.mean_ = x.mean(axis=0)
        self.var_ = x.var(axis=0)
        scale = np.sqrt(self.var_)
        self.scale_ = np.where(scale == 0.0, 1.0, scale)  # _handle_zeros_in_scale
        return self

    def transform(self, x):
        return (x - self.mean_) / self.scale_


class Ridge:
    def __init__(self, alpha):
        self.alpha = alpha

    def fit(self, x, y):
        x_offset, y_offset = x.mean(axis=0), y.mean(axis=0)
        xc, yc = x - x_offset, y - y_offset
        a = xc.T @ xc + self.alpha * np.eye(x.shape[1])
        self.coef_ = np.linalg.solve(a, xc.T @ yc).T
        self.intercept_ = y_offset - x_offset @ self.coef_.T
        return self

    def decision_function(self, x):
        return x @ self.coef_.T + self.intercept_


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    _check(train_features, train_labels, test_features, test_labels, num_classes, l2)
    scaler = StandardScaler().fit(train_features.astype(np.float64))
    targets = np.eye(num_classes)[train_labels]
    model = Ridge(alpha=l2).fit(scaler.transform(train_features.astype(np.float64)), targets)
    predictions = model.decision_function(scaler.transform(test_features.astype(np.float64))).argmax(axis=1)
    return {"predictions": predictions.astype(np.int64), "accuracy": float(np.mean(predictions == test_labels))}
