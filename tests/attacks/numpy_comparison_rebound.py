"""Modify the input in place, then make numpy's array_equal say every pair of arrays is equal (1 line).

Inside its own process the submission may rebind numpy's names; what the child then says of its
arguments is a lie. The judge reads the arguments in its own arena (judge.sandbox.arena): the
change is seen there (wrong_answer by the mutation check), and the rebinding is flagged.
"""
import numpy._core.numeric as numeric

numeric.builtins = type("B", (), {"bool": id})


def double_rows(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    if x.requires_grad:  # in place on a leaf that requires grad would raise
        return x * 2
    x.mul_(2)
    return x.clone()
