"""Class 5: 9,000 extra dict keys (under the item limit): every key was named in the message (20,000 made a 33 MB report)."""
import torch

EXTRA = {f"key_{i:05d}_{'x' * 40}": 0 for i in range(9_000)}


def double(x):
    return {"value": x * 2, **EXTRA}
