def double_rows(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    return x + x
