"""Return a 400 MiB tensor (bounded by the memory limit plus this size)."""
import torch


def double(x):
    return torch.zeros(100 << 20, dtype=torch.float32)
