"""Known mistakes for `linear_probe`, each a complete solution with one classic error.

The leakage mistakes (test or train+test statistics, fitting on train+test)
are caught twice: by the values, and by the leakage checks, whose messages
explain the leak in the learner's words.
"""
import numpy as np


def _stats(features):
    std = features.std(axis=0)
    return features.mean(axis=0), np.where(std == 0, 1.0, std)


def _fit_predict(x_train, train_labels, x_test, num_classes, l2, penalise_bias=False):
    targets = np.eye(num_classes)[train_labels]
    if penalise_bias:
        a = np.hstack([x_train, np.ones((len(x_train), 1))])
        w = np.linalg.solve(a.T @ a + l2 * np.eye(a.shape[1]), a.T @ targets)
        scores = np.hstack([x_test, np.ones((len(x_test), 1))]) @ w
    else:
        w = np.linalg.solve(x_train.T @ x_train + l2 * np.eye(x_train.shape[1]), x_train.T @ targets)
        scores = x_test @ w + targets.mean(axis=0)
    return scores


def _result(scores, test_labels, axis=1):
    predictions = scores.argmax(axis=axis).astype(np.int64)
    # argmax over samples gives num_classes predictions: compared with as many labels, as such code does
    accuracy = float(np.mean(predictions == test_labels[:len(predictions)]))
    return {"predictions": predictions, "accuracy": accuracy}


def test_statistics(train_features, train_labels, test_features, test_labels, num_classes, l2):
    mean, std = _stats(train_features.astype(np.float64))
    test_mean, test_std = _stats(test_features.astype(np.float64))
    scores = _fit_predict((train_features - mean) / std, train_labels, (test_features - test_mean) / test_std,
                          num_classes, l2)
    return _result(scores, test_labels)


def train_and_test_statistics(train_features, train_labels, test_features, test_labels, num_classes, l2):
    mean, std = _stats(np.vstack([train_features, test_features]).astype(np.float64))
    scores = _fit_predict((train_features - mean) / std, train_labels, (test_features - mean) / std, num_classes, l2)
    return _result(scores, test_labels)


def fit_on_train_and_test(train_features, train_labels, test_features, test_labels, num_classes, l2):
    features = np.vstack([train_features, test_features]).astype(np.float64)
    labels = np.concatenate([train_labels, test_labels])
    mean, std = _stats(features)
    scores = _fit_predict((features - mean) / std, labels, (test_features - mean) / std, num_classes, l2)
    return _result(scores, test_labels)


def bias_penalised(train_features, train_labels, test_features, test_labels, num_classes, l2):
    mean, std = _stats(train_features.astype(np.float64))
    scores = _fit_predict((train_features - mean) / std, train_labels, (test_features - mean) / std,
                          num_classes, l2, penalise_bias=True)
    return _result(scores, test_labels)


def no_standardisation(train_features, train_labels, test_features, test_labels, num_classes, l2):
    scores = _fit_predict(train_features.astype(np.float64), train_labels, test_features.astype(np.float64),
                          num_classes, l2)
    return _result(scores, test_labels)


def argmax_over_samples(train_features, train_labels, test_features, test_labels, num_classes, l2):
    mean, std = _stats(train_features.astype(np.float64))
    scores = _fit_predict((train_features - mean) / std, train_labels, (test_features - mean) / std, num_classes, l2)
    return _result(scores, test_labels, axis=0)


def no_intercept(train_features, train_labels, test_features, test_labels, num_classes, l2):
    # ridge without an intercept (sklearn's Ridge(fit_intercept=False)): scores X_test W, no b
    mean, std = _stats(train_features.astype(np.float64))
    x = (train_features - mean) / std
    targets = np.eye(num_classes)[train_labels]
    w = np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ targets)
    return _result((test_features - mean) / std @ w, test_labels)


def sample_std(train_features, train_labels, test_features, test_labels, num_classes, l2):
    train = train_features.astype(np.float64)
    std = train.std(axis=0, ddof=1) if len(train) > 1 else np.zeros(train.shape[1])
    mean, std = train.mean(axis=0), np.where(std == 0, 1.0, std)
    scores = _fit_predict((train - mean) / std, train_labels, (test_features - mean) / std, num_classes, l2)
    return _result(scores, test_labels)
