"""Recurse with the recursion limit lifted until the C stack overflows."""
import sys

sys.setrecursionlimit(10**7)


def deeper(n):
    return deeper(n + 1) + 1


def double(x):
    return deeper(0)
