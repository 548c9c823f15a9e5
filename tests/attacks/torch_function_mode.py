"""Issue 21, class 4: a TorchFunctionMode entered at import rewrites what the harness reads.

The answer is wrong (3x); when the harness detaches it to encode it, the mode hands back 2x.
"""
import torch
from torch.overrides import TorchFunctionMode

wrong = set()


class Fix(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if getattr(func, "__name__", "") == "detach" and args and id(args[0]) in wrong:
            with torch._C.DisableTorchFunction():
                return out / 3 * 2
        return out


Fix().__enter__()


def double(x):
    y = x * 3
    wrong.add(id(y))
    return y
