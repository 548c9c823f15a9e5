"""A numpy problem solved in torch float64: train-only standardisation, torch.linalg.solve for the ridge weights.

Adapted from: scikit-learn/scikit-learn, sklearn/linear_model/_ridge.py (_solve_cholesky) and sklearn/preprocessing/_data.py (StandardScaler), ported to torch.linalg as probe code on GPU features is written
expect: accepted
"""
import numpy as np
import torch
import torch.nn.functional as F


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
    x_train = torch.tensor(train_features, dtype=torch.float64)
    x_test = torch.tensor(test_features, dtype=torch.float64)
    mean = x_train.mean(dim=0)
    std = x_train.std(dim=0, unbiased=False)
    std = torch.where(std == 0, torch.ones_like(std), std)
    x_train, x_test = (x_train - mean) / std, (x_test - mean) / std
    targets = F.one_hot(torch.tensor(train_labels, dtype=torch.int64), num_classes).to(torch.float64)
    gram = x_train.T @ x_train + l2 * torch.eye(x_train.shape[1], dtype=torch.float64)
    weights = torch.linalg.solve(gram, x_train.T @ targets)
    scores = x_test @ weights + targets.mean(dim=0)
    predictions = scores.argmax(dim=1).numpy()
    return {"predictions": predictions, "accuracy": float(np.mean(predictions == test_labels))}
