import numpy as np


def sinusoidal_positions(num_positions: int, dim: int, base: float = 10000.0) -> np.ndarray:
    """Each pair of columns is a unit vector (sin, cos) of one angle: stack them on a last axis, then flatten."""
    if dim < 2 or dim % 2 == 1:
        raise ValueError("dim must be even and at least 2")
    if num_positions < 1:
        raise ValueError("num_positions must be at least 1")
    if base <= 0:
        raise ValueError("base must be positive")
    wavelength = np.power(float(base), np.arange(dim // 2) * 2.0 / dim)
    angle = np.arange(num_positions)[:, None] / wavelength
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(num_positions, dim)
