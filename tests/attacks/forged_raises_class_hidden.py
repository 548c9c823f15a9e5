"""forged_raises_class with the lying class built from bytes at run time.

The source shows no `__class__`, so the judge's look at the source flags nothing; the judge
decides the raises test on the exception's real type all the same: wrong_answer.
"""
exec(bytes.fromhex(
    "636c617373205f466f7267656428457863657074696f6e293a0a202020204070726f70657274790a2020202064"
    "6566205f5f636c6173735f5f2873656c66293a0a202020202020202072657475726e2056616c75654572726f720a"
).decode())


def double_rows(x):
    if x.ndim != 2:
        raise _Forged("x must be 2-D")  # noqa: F821 - defined by the exec above
    return x * 2
