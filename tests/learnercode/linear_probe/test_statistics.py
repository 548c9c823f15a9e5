import numpy as np


def standardize(x):
    mu = x.mean(axis=0)
    sigma = x.std(axis=0)
    sigma[sigma == 0] = 1.0
    return (x - mu) / sigma


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2 or len(train_features) < 1 or len(test_features) < 1:
        raise ValueError("features must be non-empty 2-D arrays")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("feature widths differ")
    if train_labels.shape != (len(train_features),) or test_labels.shape != (len(test_features),):
        raise ValueError("labels do not match the features")
    if num_classes < 1 or train_labels.min() < 0 or test_labels.min() < 0 \
            or train_labels.max() >= num_classes or test_labels.max() >= num_classes:
        raise ValueError("labels out of range")
    if l2 <= 0:
        raise ValueError("l2 must be > 0")
    X = standardize(train_features.astype(np.float64))
    X_test = standardize(test_features.astype(np.float64))
    Y = np.zeros((len(X), num_classes))
    Y[np.arange(len(X)), train_labels] = 1
    W = np.linalg.solve(X.T @ X + l2 * np.eye(X.shape[1]), X.T @ Y)
    pred = (X_test @ W + Y.mean(axis=0)).argmax(axis=1)
    return {"predictions": pred.astype(np.int64), "accuracy": float((pred == test_labels).mean())}
