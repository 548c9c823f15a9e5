"""Names of types and kinds in a learner's words: "an int", "None", "object" (not "a int", "builtins.object")."""
from __future__ import annotations


def a(noun: str) -> str:
    """`noun` with its indefinite article, as a person would write it ("None" takes none)."""
    if noun in ("None", "NoneType"):
        return "None"
    return f"{'an' if noun[:1].lower() in 'aeio' else 'a'} {noun}"


def type_name(kind: type) -> str:
    """A type as Python code names it: builtins bare (`object`), others qualified (`numpy.matrix`)."""
    module = getattr(kind, "__module__", "") or ""
    name = getattr(kind, "__qualname__", None) or getattr(kind, "__name__", "?")
    return name if module in ("builtins", "__main__", "submission") else f"{module}.{name}"
