"""Kernel (dual) form of ridge: W = X^T (X X^T + l2 I)^-1 Y, one class column at a time."""
import numpy as np


def _validate(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if np.ndim(train_features) != 2 or np.ndim(test_features) != 2:
        raise ValueError("train_features and test_features must be (n, d)")
    n_train, d = train_features.shape
    n_test, d_test = test_features.shape
    if n_train < 1 or n_test < 1 or d != d_test:
        raise ValueError("bad feature shapes")
    if np.shape(train_labels) != (n_train,) or np.shape(test_labels) != (n_test,):
        raise ValueError("labels must have one entry per row")
    if np.any(train_labels < 0) or np.any(train_labels >= num_classes):
        raise ValueError("train label out of range")
    if np.any(test_labels < 0) or np.any(test_labels >= num_classes):
        raise ValueError("test label out of range")
    if not l2 > 0:
        raise ValueError("l2 must be > 0")


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    _validate(train_features, train_labels, test_features, test_labels, num_classes, l2)
    train = np.asarray(train_features, dtype=np.float64)
    test = np.asarray(test_features, dtype=np.float64)
    mu = train.mean(axis=0)
    sigma = np.sqrt(((train - mu) ** 2).mean(axis=0))
    sigma = np.where(sigma == 0.0, 1.0, sigma)
    x = (train - mu) / sigma
    x_test = (test - mu) / sigma
    gram = x @ x.T + l2 * np.eye(len(x))
    scores = np.empty((len(test), num_classes))
    for k in range(num_classes):
        target = (train_labels == k).astype(np.float64)
        alpha = np.linalg.solve(gram, target)
        scores[:, k] = x_test @ (x.T @ alpha) + target.mean()
    predictions = np.argmax(scores, axis=1).astype(np.int64)
    return {"predictions": predictions, "accuracy": np.mean(predictions == test_labels)}
