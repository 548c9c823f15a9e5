"""Say memory ran out without using any: the builtin MemoryError, raised as it is.

Which exception a call raised is the child's claim; memory_limit_exceeded rests on the monitor's
measurement (judge.sandbox.memory), which saw nothing: runtime_error.
"""


def double(x):
    raise MemoryError("out of memory (not really)")
