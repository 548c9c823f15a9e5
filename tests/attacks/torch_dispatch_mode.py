"""A TorchDispatchMode entered at import rewrites what the child's observing reads.

The answer is wrong (3x); any detach of it the observing makes would be turned back into 2x. The
observing runs with torch's Python dispatch off, and the value is compared in the judge: a wrong
answer, and a mode left entered is flagged as tampering. The first operation under a dispatch mode
imports much of torch (about a second here): done while loading, so that the calls are quick.
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
torch.ones(1) * 1


def double(x):
    y = x * 3
    wrong.add(y.data_ptr())
    return y
