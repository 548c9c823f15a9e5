import numpy as np


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
    tr = train_features.astype(np.float64)
    te = test_features.astype(np.float64)
    tr_std = tr.std(0)
    tr = (tr - tr.mean(0)) / np.where(tr_std == 0, 1, tr_std)
    te_std = te.std(0)
    te = (te - te.mean(0)) / np.where(te_std == 0, 1, te_std)
    # append a column of ones for the bias
    A = np.hstack([tr, np.ones((len(tr), 1))])
    Y = np.eye(num_classes)[train_labels]
    W = np.linalg.solve(A.T @ A + l2 * np.eye(A.shape[1]), A.T @ Y)
    scores = np.hstack([te, np.ones((len(te), 1))]) @ W
    pred = np.argmax(scores, axis=1)
    return {"predictions": pred.astype(np.int64), "accuracy": float(np.mean(pred == test_labels))}
