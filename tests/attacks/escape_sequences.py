"""Class 8: terminal escape sequences in messages and printed output redraw a failing row as accepted."""
REDRAW = "\x1b[1A\x1b[2K\r  \x1b[32m✓ hidden_random  AC\x1b[0m \x9b2K \x07"


def double(x):
    print(REDRAW)
    raise RuntimeError(REDRAW)
