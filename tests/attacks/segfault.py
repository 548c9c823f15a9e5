"""Crash the interpreter with a segmentation fault."""
import ctypes


def double(x):
    ctypes.string_at(0)
    return x * 2
