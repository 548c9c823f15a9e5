"""scikit-learn's StandardScaler and Ridge on one-hot targets, the labels indexed as given: float labels would raise IndexError in np.eye.

Adapted from: openai/CLIP, README.md (linear-probe evaluation: a scikit-learn classifier fitted on the train features, scored on the test features), with scikit-learn's StandardScaler and Ridge (sklearn/linear_model/_ridge.py) for this problem's closed form; as the README's code, it checks shapes and ranges, not dtypes
expect: accepted
"""
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler


def linear_probe(train_features, train_labels, test_features, test_labels, num_classes, l2):
    if train_features.ndim != 2 or test_features.ndim != 2 or not len(train_features) or not len(test_features):
        raise ValueError("features must be non-empty (n, d) arrays")
    if train_features.shape[1] != test_features.shape[1]:
        raise ValueError("train and test features differ in width")
    if train_labels.shape != (len(train_features),) or test_labels.shape != (len(test_features),):
        raise ValueError("one label per sample")
    for labels in (train_labels, test_labels):
        if labels.min() < 0 or labels.max() >= num_classes:
            raise ValueError(f"labels must lie in [0, {num_classes})")
    if l2 <= 0:
        raise ValueError("l2 must be positive")
    scaler = StandardScaler().fit(train_features.astype(np.float64))
    classifier = Ridge(alpha=l2).fit(scaler.transform(train_features.astype(np.float64)),
                                     np.eye(num_classes)[train_labels])
    predictions = classifier.predict(scaler.transform(test_features.astype(np.float64))).argmax(axis=1)
    return {"predictions": predictions.astype(np.int64), "accuracy": float((predictions == test_labels).mean())}
