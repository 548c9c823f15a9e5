"""Reference for the rows attack fixture. @MARKER@"""


def double_rows(x):
    if x.dim() != 2:
        raise ValueError(f"x must be 2-D, got {x.dim()}-D")
    return x * 2
