"""Issue 21, class 4: a TorchDispatchMode entered at import rewrites what the harness reads.

The answer is wrong (3x); any detach of it the harness makes is turned back into 2x.
"""
import torch
from torch.utils._python_dispatch import TorchDispatchMode

wrong = set()


class Fix(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func is torch.ops.aten.detach.default and args and args[0].data_ptr() in wrong:
            return out / 3 * 2
        return out


Fix().__enter__()


def double(x):
    y = x * 3
    wrong.add(y.data_ptr())
    return y
