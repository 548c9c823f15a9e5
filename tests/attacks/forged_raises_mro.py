"""Raise an exception whose metaclass has a `__mro__` property that lists ValueError.

`type(exc).__mro__` is then a lie (a metaclass's data descriptor wins over type's own);
`isinstance` and `except ValueError` go by the type's real MRO and are not fooled. A judge that
read `type(exc).__mro__` would pass the raises test; it reads the real one: wrong_answer.
"""


class _Meta(type):
    @property
    def __mro__(cls):  # noqa: D401 - the point of the attack
        return (cls, ValueError, Exception, BaseException, object)


class _Forged(Exception, metaclass=_Meta):
    pass


def double_rows(x):
    if x.ndim != 2:
        raise _Forged("x must be 2-D")
    return x * 2
