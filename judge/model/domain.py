"""A problem's input domain: for each argument, the types (and ranks) its contract covers.

The contract covers these inputs and no others: every example and hidden test
stays inside the domain (the invalid inputs a statement names, such as a shape
that does not fit or a size below 1, are inside it: they are of the right type
and must raise), and what a solution does with an argument of another type (a
float or a bool where an int is due, float labels, a list where an array is
due) is its own business. The mutation gate (judge.authoring.gate) calls a
mutant that differs from the reference only outside the domain out of contract.

An argument's domain is written in the public YAML as a type expression,
optionally with the ranks an array may have (`domain:`, see docs/authoring.md):

    int            a Python int, never a bool (Python counts True as 1, so no test turns on it)
    float          a Python float; an int is a float here too (never a bool)
    bool, str      True or False; a string
    None           None (in a union: an optional argument)
    tensor[D, ..]  a torch.Tensor whose dtype is one of D: a kind (float, int, bool) or a name (float32, ...)
    array[D, ..]   a numpy.ndarray, likewise
    seq[T]         a tuple or list of T, of any length (a length the rules name is theirs to test)
    dict[T]        a dict of str keys to T
    any            anything
    A | B          either

An argument the YAML does not name takes its domain from the signature's
annotation (`patch_height: int` gives `int`, `torch.Tensor` gives `tensor`,
`tuple[int, int]` gives `seq[int]`); one with neither is `any`.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from judge.base.encoding import Array
from judge.base.yamlfile import Fields

KINDS = {"float": ("float16", "bfloat16", "float32", "float64"),
         "int": ("int8", "int16", "int32", "int64", "uint8"),
         "bool": ("bool",)}
DTYPE_NAMES = tuple(name for names in KINDS.values() for name in names)
SCALARS = ("int", "float", "bool", "str", "None", "any")
CONTAINERS = ("tensor", "array", "seq", "dict")
LIBRARY = {"tensor": "torch", "array": "numpy"}


class DomainSyntaxError(ValueError):
    """A type expression that cannot be read; its message says what was expected."""


@dataclass(frozen=True)
class Kind:
    """One alternative of a type expression."""

    name: str                                  # one of SCALARS or CONTAINERS
    dtypes: tuple[str, ...] = ()               # tensor/array: the dtype names allowed; (): any
    item: "Union | None" = None                # seq/dict: the items' type

    def admits(self, value: Any) -> bool:
        name = self.name
        if name == "any":
            return True
        if name == "None":
            return value is None
        if name == "bool":
            return type(value) is bool
        if name == "int":
            return type(value) is int
        if name == "float":
            return type(value) in (int, float)
        if name == "str":
            return type(value) is str
        if name in LIBRARY:
            return (isinstance(value, Array) and not value.scalar and value.library == LIBRARY[name]
                    and (not self.dtypes or value.dtype in self.dtypes))
        if name == "seq":
            return isinstance(value, (list, tuple)) and all(self.item.admits(v) for v in value)
        if name == "dict":
            return isinstance(value, dict) and all(type(k) is str and self.item.admits(v) for k, v in value.items())
        return False

    def words(self, plural: bool = False, ranks: tuple[int, ...] = ()) -> str:
        """How learners read it: `a torch.Tensor of dtype float32 or float64`, `a tuple or list of ints`;
        `ranks` say an array's number of axes (`a 0-D torch.Tensor`)."""
        one = {"int": ("an `int`", "`int`s"), "float": ("a `float`", "`float`s"), "str": ("a `str`", "`str`s"),
               "bool": ("`True` or `False`", "bools"), "None": ("`None`", "`None`s"), "any": ("any value", "values")}
        if self.name in one:
            return one[self.name][plural]
        if self.name in LIBRARY:
            what = "`torch.Tensor`" if self.name == "tensor" else "`numpy.ndarray`"
            if ranks:
                what = f"{' or '.join(f'{r}-D' for r in ranks)} {what}"
            dtypes = _dtype_phrase(self.dtypes)
            return f"{what}s{dtypes}" if plural else f"a {what}{dtypes}"
        if self.name == "seq":
            return ("tuples or lists" if plural else "a tuple or list") + f" of {self.item.words(plural=True)}"
        return ("dicts" if plural else "a `dict`") + f" of `str` keys to {self.item.words(plural=True)}"

    def text(self) -> str:
        if self.name in LIBRARY:
            return f"{self.name}[{', '.join(_dtype_words(self.dtypes))}]" if self.dtypes else self.name
        if self.name in ("seq", "dict"):
            return f"{self.name}[{self.item.text()}]"
        return self.name


@dataclass(frozen=True)
class Union:
    """Alternatives: a value is admitted when one of them admits it."""

    kinds: tuple[Kind, ...]

    def admits(self, value: Any) -> bool:
        return any(k.admits(value) for k in self.kinds)

    def text(self) -> str:
        return " | ".join(k.text() for k in self.kinds)

    def words(self, plural: bool = False, ranks: tuple[int, ...] = ()) -> str:
        return " or ".join(k.words(plural, ranks) for k in self.kinds)


@dataclass(frozen=True)
class ArgDomain:
    """The domain of one argument."""

    name: str
    type: Union
    ranks: tuple[int, ...] = ()      # the ranks a tensor or array may have; (): any
    declared: bool = True            # written in the YAML (False: read from the signature)

    def outside(self, value: Any) -> str | None:
        """Why `value` is outside this domain (in an author's words), or None when it is inside."""
        if not self.type.admits(value):
            return f"{self.name} is {_kind_of(value)}, not {self.type.text()}"
        if self.ranks and isinstance(value, Array) and value.data.ndim not in self.ranks:
            ranks = " or ".join(str(r) for r in self.ranks)
            return f"{self.name} has {value.data.ndim} axes, not {ranks}"
        return None

    def words(self) -> str:
        """The domain as the statement says it: `a float or a 0-D torch.Tensor of dtype float32 or float64`."""
        return self.type.words(ranks=self.ranks)

    def text(self) -> str:
        ranks = f" of rank {' or '.join(str(r) for r in self.ranks)}" if self.ranks else ""
        return f"{self.type.text()}{ranks}"

    @property
    def open(self) -> bool:
        """Whether the domain admits anything (nothing stated)."""
        return not self.ranks and any(k.name == "any" for k in self.type.kinds)


@dataclass(frozen=True)
class Domain:
    """The domain of every argument, in the order of `args`."""

    args: tuple[ArgDomain, ...] = field(default_factory=tuple)

    def of(self, name: str) -> ArgDomain | None:
        return next((a for a in self.args if a.name == name), None)

    def outside(self, names: tuple[str, ...], values: tuple[Any, ...]) -> str | None:
        """Why these arguments lie outside the domain (the first argument that does), or None."""
        for name, value in zip(names, values):
            arg = self.of(name)
            why = arg.outside(value) if arg is not None else None
            if why:
                return why
        return None

    @property
    def stated(self) -> bool:
        """Whether any argument's domain says more than `any`."""
        return any(not a.open for a in self.args)


# ---------------------------------------------------------------- reading type expressions

_TOKEN = re.compile(r"\s*(?:(?P<word>[A-Za-z_][A-Za-z_0-9]*)|(?P<punct>[\[\],|]))")


def parse_type(text: str) -> Union:
    """A type expression (see the module docstring) as a Union; DomainSyntaxError says what is wrong."""
    tokens = _tokens(text)
    union, rest = _union(tokens, 0, text)
    if rest != len(tokens):
        raise DomainSyntaxError(f"unexpected {tokens[rest]!r} in {text!r}")
    return union


def _tokens(text: str) -> list[str]:
    found, at = [], 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        match = _TOKEN.match(text, at)
        if not match:
            raise DomainSyntaxError(f"cannot read {text[at:].strip()[:20]!r} in {text!r}")
        found.append(match.group("word") or match.group("punct"))
        at = match.end()
    if not found:
        raise DomainSyntaxError("an empty type; expected e.g. int, float, tensor[float32, float64] or seq[int]")
    return found


def _union(tokens: list[str], at: int, text: str) -> tuple[Union, int]:
    kinds = []
    while True:
        kind, at = _kind(tokens, at, text)
        kinds.append(kind)
        if at < len(tokens) and tokens[at] == "|":
            at += 1
            continue
        return Union(tuple(kinds)), at


def _kind(tokens: list[str], at: int, text: str) -> tuple[Kind, int]:
    if at >= len(tokens):
        raise DomainSyntaxError(f"{text!r} ends where a type is expected")
    word = tokens[at]
    at += 1
    if word in SCALARS:
        return Kind(word), at
    if word not in CONTAINERS:
        raise DomainSyntaxError(f"unknown type {word!r} in {text!r}; expected one of "
                                f"{', '.join(SCALARS + CONTAINERS)}")
    has_brackets = at < len(tokens) and tokens[at] == "["
    if word in LIBRARY:
        if not has_brackets:
            return Kind(word), at
        dtypes, at = _dtypes(tokens, at + 1, text)
        return Kind(word, dtypes=dtypes), at
    if not has_brackets:
        raise DomainSyntaxError(f"{word} needs its items' type in brackets, e.g. {word}[int], in {text!r}")
    item, at = _union(tokens, at + 1, text)
    if at >= len(tokens) or tokens[at] != "]":
        raise DomainSyntaxError(f"{word}[...] is not closed with ']' in {text!r}")
    return Kind(word, item=item), at + 1


def _dtypes(tokens: list[str], at: int, text: str) -> tuple[tuple[str, ...], int]:
    names: list[str] = []
    while True:
        if at >= len(tokens):
            raise DomainSyntaxError(f"a dtype list is not closed with ']' in {text!r}")
        word = tokens[at]
        if word in KINDS:
            names += [n for n in KINDS[word] if n not in names]
        elif word in DTYPE_NAMES:
            names += [word] if word not in names else []
        else:
            raise DomainSyntaxError(f"unknown dtype {word!r} in {text!r}; expected a kind (float, int, bool) "
                                    f"or a dtype name ({', '.join(DTYPE_NAMES)})")
        at += 1
        if at < len(tokens) and tokens[at] == ",":
            at += 1
            continue
        if at < len(tokens) and tokens[at] == "]":
            return tuple(names), at + 1
        raise DomainSyntaxError(f"expected ',' or ']' after {word!r} in {text!r}")


# ---------------------------------------------------------------- from the signature

def from_signature(signature: str) -> dict[str, Union]:
    """The domain the signature's annotations give, per annotated argument (nothing for one it cannot read)."""
    try:
        tree = ast.parse(signature.strip() + "\n    pass\n" if signature.strip().endswith(":")
                         else signature.strip() + ":\n    pass\n")
    except SyntaxError:
        return {}
    function = tree.body[0] if tree.body and isinstance(tree.body[0], ast.FunctionDef) else None
    if function is None:
        return {}
    found = {}
    for arg in [*function.args.posonlyargs, *function.args.args]:
        if arg.annotation is not None:
            union = _annotation(arg.annotation)
            if union is not None:
                found[arg.arg] = union
    return found


_NAMED = {"int": "int", "float": "float", "bool": "bool", "str": "str", "None": "None", "Tensor": "tensor",
          "ndarray": "array", "dict": "dict", "Any": "any"}


def _annotation(node: ast.expr) -> Union | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _annotation(node.left), _annotation(node.right)
        return Union(left.kinds + right.kinds) if left is not None and right is not None else None
    if isinstance(node, ast.Constant) and node.value is None:
        return Union((Kind("None"),))
    if isinstance(node, ast.Subscript):
        base = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(node.value, "id", None)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base in ("tuple", "list", "Sequence", "Tuple", "List"):
            inner = [_annotation(i) for i in items if not (isinstance(i, ast.Constant) and i.value is Ellipsis)]
            if not inner or any(i is None for i in inner):
                return None
            kinds = tuple(dict.fromkeys(k for i in inner for k in i.kinds))   # tuple[int, int]: int once
            return Union((Kind("seq", item=Union(kinds)),))
        if base in ("dict", "Dict", "Mapping"):
            value = _annotation(items[-1]) if len(items) == 2 else Union((Kind("any"),))
            return Union((Kind("dict", item=value),)) if value is not None else None
        if base == "Optional":
            inner = _annotation(items[0])
            return Union(inner.kinds + (Kind("None"),)) if inner is not None else None
        return None
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    if name in _NAMED:
        kind = _NAMED[name]
        return Union((Kind("dict", item=Union((Kind("any"),))),)) if kind == "dict" else Union((Kind(kind),))
    return None


def build(args: tuple[str, ...], declared: dict[str, tuple[Union, tuple[int, ...]]], signature: str) -> Domain:
    """Each argument's domain: as declared in the YAML, else from the signature, else `any`."""
    annotated = from_signature(signature)
    found = []
    for name in args:
        if name in declared:
            union, ranks = declared[name]
            found.append(ArgDomain(name, union, ranks, declared=True))
        else:
            found.append(ArgDomain(name, annotated.get(name, Union((Kind("any"),))), (), declared=False))
    return Domain(tuple(found))


# ---------------------------------------------------------------- the YAML

def read(top: Fields, args: list[str] | None, signature: str) -> Domain:
    """A problem file's `domain:` (errors collected in `top`'s file): per argument a type expression (judge.model.domain) or `{type: EXPR, rank: N or [N, ...]}`;
    arguments it leaves out take the signature's annotation."""
    sub = top.sub("domain")
    declared: dict[str, tuple[Union, tuple[int, ...]]] = {}
    for name in sub.data:
        if args is not None and name not in args:
            sub.error(name, f"not an argument; the arguments are {', '.join(args)}")
            continue
        value = sub.raw(name)
        text, ranks = value, ()
        if isinstance(value, dict):
            entry = sub.sub(str(name))
            text = entry.get("type", str, what="a type expression such as int or tensor[float32, float64]")
            rank = entry.get("rank", (int, list), default=None, check=_ranks)
            ranks = tuple(rank) if isinstance(rank, list) else (rank,) if rank is not None else ()
            entry.unknown({"type", "rank"})
            if text is None:
                continue
        elif not isinstance(value, str):
            sub.error(name, "expected a type expression (int, float, bool, str, None, any, tensor[DTYPES], "
                            "array[DTYPES], seq[T], dict[T], A | B) or a mapping {type: ..., rank: ...}")
            continue
        try:
            declared[str(name)] = (parse_type(text), ranks)
        except DomainSyntaxError as exc:
            sub.error(name, f"{exc}")
    return build(tuple(args or ()), declared, signature)


def _ranks(v: int | list) -> str | None:
    values = v if isinstance(v, list) else [v]
    ok = values and all(type(r) is int and r >= 0 for r in values)
    return None if ok else f"expected a rank (an int >= 0) or a list of ranks, got {v!r}"


# ---------------------------------------------------------------- words

def _dtype_words(dtypes: tuple[str, ...]) -> list[str]:
    """Dtype names, a whole kind said as its kind (float, int)."""
    words, left = [], list(dtypes)
    for kind, names in KINDS.items():
        if len(names) > 1 and all(n in left for n in names):
            words.append(kind)
            left = [n for n in left if n not in names]
    return words + left


def _dtype_phrase(dtypes: tuple[str, ...]) -> str:
    """` of a float dtype`, ` of dtype float32 or float64`, or nothing for any dtype."""
    if not dtypes:
        return ""
    words = _dtype_words(dtypes)
    if all(w in KINDS for w in words):
        joined = " or ".join(words)
        return f" of {_article(joined)} {joined} dtype"
    return f" of dtype {' or '.join(words)}"


def _kind_of(value: Any) -> str:
    if isinstance(value, Array):
        if value.scalar:
            return f"a numpy.{value.dtype} scalar"
        return f"a {'tensor' if value.library == 'torch' else 'numpy array'} of {value.dtype}"
    if value is None:
        return "None"
    if isinstance(value, bool):
        return f"a bool ({value})"
    text = repr(value)
    return f"{_article(type(value).__name__)} {type(value).__name__} ({text if len(text) <= 20 else text[:17] + '...'})"


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
