"""scikit-learn's own StandardScaler and Ridge: fit on the training features only, one-hot targets, argmax of predict().

Adapted from: openai/CLIP, README.md (Linear-probe evaluation: a scikit-learn classifier fitted on the train features, scored on the test features), with scikit-learn's StandardScaler and Ridge (sklearn/linear_model/_ridge.py) for this problem's closed-form probe in place of LogisticRegression
expect: accepted
"""
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler


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
    scaler = StandardScaler().fit(train_features.astype(np.float64))
    targets = np.eye(num_classes)[train_labels]
    probe = Ridge(alpha=l2, fit_intercept=True).fit(scaler.transform(train_features.astype(np.float64)), targets)
    scores = probe.predict(scaler.transform(test_features.astype(np.float64)))
    predictions = scores.argmax(axis=1).astype(np.int64)
    return {"predictions": predictions, "accuracy": float(np.mean(predictions == test_labels))}
