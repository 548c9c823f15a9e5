"""Class 2: modify the input in place, then make the harness report no inputs afterwards.

The judge's own module is in sys.modules; replacing its function that reads
the inputs back (and the method that turns an observation into plain data)
changes what the child says, not what the judge reads in its own arena of the
arguments (judge.sandbox.arena): the mutation check fails, the rebinding is flagged.
"""
import sys

harness = sys.modules.get("judge.runs.calls")
if harness is not None:
    harness._inputs_after = lambda *args: None
    original = harness.Observation.to_plain

    def to_plain(self):
        plain = original(self)
        plain["inputs_after"] = None
        return plain

    harness.Observation.to_plain = to_plain


def double_rows(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    if x.requires_grad:  # in place on a leaf that requires grad would raise
        return x * 2
    x.mul_(2)
    return x.clone()
