"""Known mistakes for `unpatchify`, each a complete solution with one classic error.

The judge runs these on a failing test's inputs; when the submission's output
equals one of them, the message names that mistake.
"""


def _sizes(tokens, h, w, ph, pw):
    b, n, f = tokens.shape
    return b, f // (ph * pw), h // ph, w // pw


def column_major(tokens, h, w, ph, pw):
    b, c, rows, cols = _sizes(tokens, h, w, ph, pw)
    return tokens.reshape(b, cols, rows, c, ph, pw).permute(0, 3, 2, 4, 1, 5).reshape(b, c, h, w)


def channels_last_unflatten(tokens, h, w, ph, pw):
    b, c, rows, cols = _sizes(tokens, h, w, ph, pw)
    return tokens.reshape(b, rows, cols, ph, pw, c).permute(0, 5, 1, 3, 2, 4).reshape(b, c, h, w)


def reshape_without_permute(tokens, h, w, ph, pw):
    b, c, rows, cols = _sizes(tokens, h, w, ph, pw)
    return tokens.reshape(b, c, h, w)


def swapped_patch_axes(tokens, h, w, ph, pw):
    b, c, rows, cols = _sizes(tokens, h, w, ph, pw)
    return tokens.reshape(b, rows, cols, c, ph, pw).permute(0, 3, 1, 5, 2, 4).reshape(b, c, h, w)


def batch_mixing(tokens, h, w, ph, pw):
    b, c, rows, cols = _sizes(tokens, h, w, ph, pw)
    return tokens.reshape(rows, cols, b, c, ph, pw).permute(2, 3, 0, 4, 1, 5).reshape(b, c, h, w)
