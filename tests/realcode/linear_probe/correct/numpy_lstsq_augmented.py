"""Ridge as ordinary least squares on an augmented system, [X; sqrt(l2) I] W = [Y; 0], solved by np.linalg.lstsq; labels indexed as given.

Adapted from: the textbook augmentation of ridge regression (Hastie, Tibshirani and Friedman, The Elements of Statistical Learning, exercise 3.12) as NumPy users write it with numpy.linalg.lstsq, on train-standardised features with one-hot targets from np.eye; no dtype checks (float labels fail in np.eye's indexing with IndexError)
expect: accepted
"""
import numpy as np


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2:
        raise ValueError("features must be 2-D")
    if len(train_features) == 0 or len(test_features) == 0:
        raise ValueError("need at least one train and one test sample")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("feature widths differ")
    if train_labels.shape != (len(train_features),) or test_labels.shape != (len(test_features),):
        raise ValueError("one label per row")
    if np.any(train_labels < 0) or np.any(test_labels < 0) or np.any(train_labels >= num_classes) \
            or np.any(test_labels >= num_classes):
        raise ValueError("labels must be in [0, num_classes)")
    if l2 <= 0:
        raise ValueError("l2 must be > 0")
    train = train_features.astype(np.float64)
    mean, std = train.mean(axis=0), train.std(axis=0)
    std = np.where(std == 0, 1.0, std)
    x = (train - mean) / std
    y = np.eye(num_classes)[train_labels]
    d = x.shape[1]
    augmented_x = np.vstack([x, np.sqrt(l2) * np.eye(d)])
    augmented_y = np.vstack([y, np.zeros((d, num_classes))])
    weights = np.linalg.lstsq(augmented_x, augmented_y, rcond=None)[0]
    scores = (test_features.astype(np.float64) - mean) / std @ weights + y.mean(axis=0)
    predictions = np.argmax(scores, axis=1)
    return {"predictions": predictions.astype(np.int64), "accuracy": float(np.mean(predictions == test_labels))}
