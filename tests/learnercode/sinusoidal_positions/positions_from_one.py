import numpy as np


def sinusoidal_positions(num_positions, dim, base=10000.0):
    if dim < 2 or dim % 2 == 1:
        raise ValueError("dim must be an even number >= 2")
    if num_positions < 1 or base <= 0:
        raise ValueError("invalid arguments")
    table = np.zeros((num_positions, dim))
    for pos in range(1, num_positions + 1):
        for i in range(0, dim, 2):
            angle = pos / (base ** (i / dim))
            table[pos - 1, i] = np.sin(angle)
            table[pos - 1, i + 1] = np.cos(angle)
    return table
