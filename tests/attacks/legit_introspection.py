"""What learners' code does that looks like introspection: namedtuple, typing, enum and dataclasses
read their caller's module name; traceback formats an exception it caught and the stack; logging
finds a record's line; inspect reads signatures. All of it passes (accepted), with no tampering.
"""
import collections
import dataclasses
import enum
import inspect
import logging
import traceback
import typing

Pair = collections.namedtuple("Pair", "a b")
T = typing.TypeVar("T")
Colour = enum.Enum("Colour", "red green")


@dataclasses.dataclass
class Box:
    value: int


class Point(typing.NamedTuple):
    x: int


def double(x):
    try:
        {}["missing"]
    except KeyError as exc:
        text = traceback.format_exc()
        assert "KeyError" in text
        assert "KeyError" in "".join(traceback.format_exception(exc)) and traceback.extract_tb(exc.__traceback__)
    assert "double" in "".join(traceback.format_stack()) and traceback.extract_stack(limit=2)
    logging.warning("doubling a tensor of shape %s", tuple(x.shape))   # a record's file and line: a frame read
    assert list(inspect.signature(double).parameters) == ["x"]
    assert Pair(1, 2).b == 2 and Colour.red.value == 1 and Box(3).value == 3 and Point(1).x == 1
    return x * 2
