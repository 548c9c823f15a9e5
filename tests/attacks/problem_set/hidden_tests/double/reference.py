"""Reference for the attack fixture. @MARKER@"""


def double(x):
    return x * 2
