"""A source as the similarity report reads it: the tokens of one canonical layout, each with its lines.

A source is parsed with `ast` (never run or imported), put in judge.service.canonical's normal form, and
written out again statement by statement in one canonical layout, so what copying usually changes does
not count: comments, docstrings (and every other bare string statement), blank lines and line breaks go;
a one-line `if c: raise ...` reads as the same `if` on two lines, `a = 1; b = 2` as two statements, a
statement split over lines (brackets, backslashes) as one; the top-level imports and definitions (and a
class's methods) are put in one order whatever order the file has them in. Each statement is then
tokenized and every name that is not a keyword, a builtin or an attribute becomes `V` (renamed variables
match) and every string `S`. A source that does not parse is tokenized as written (indentation as
tokens), so broken code still compares. Every token keeps the source lines it came from, so the regions
two submissions share can be marked in each.
"""
from __future__ import annotations

import ast
import builtins
import io
import keyword
import tokenize
from dataclasses import dataclass

from judge.service.canonical import normalise

MAX_TOKENS = 50_000    # a source is fingerprinted up to this many tokens (sources are untrusted)
KEPT = frozenset(keyword.kwlist) | frozenset(dir(builtins))
DROPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING, tokenize.ENDMARKER}
INDENT, DEDENT = "<in>", "<de>"
_FSTRING = {getattr(tokenize, name) for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
            if hasattr(tokenize, name)}
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IMPORTS = (ast.Import, ast.ImportFrom)


@dataclass(frozen=True)
class Token:
    """A normalised token and the source lines (1-based, inclusive) of the statement it came from."""

    text: str
    first: int
    last: int



def tokens(source: str) -> list[str]:
    """The normalised tokens of `source` (as `located_tokens` gives them, without their lines)."""
    return [t.text for t in located_tokens(source)]


def located_tokens(source: str, roots: frozenset[str] | None = None) -> list[Token]:
    """The tokens of `source`'s canonical form (its tree in judge.service.canonical's normal form, `roots`
    the functions the program is entered by), each with the lines it came from; as far as it tokenizes
    when it does not parse."""
    try:
        tree = normalise(ast.parse(source), roots)
        return _Canonical().module(tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # ValueError: a NUL byte; RecursionError and MemoryError: nesting too deep for the parser
        # or for walking the tree. Such a file is compared as written.
        return _raw_tokens(source)


class _Canonical:
    """Writes a module out statement by statement in one layout, tokens tagged with their lines."""

    def __init__(self) -> None:
        self.out: list[Token] = []

    def module(self, tree: ast.Module) -> list[Token]:
        body = _without_strings(tree.body)
        imports = [s for s in body if isinstance(s, _IMPORTS)]
        definitions = [s for s in body if isinstance(s, DEFINITIONS)]
        rest = [s for s in body if not isinstance(s, _IMPORTS + DEFINITIONS)]
        # Imports and definitions in a canonical order (their own tokens decide it), the rest as written:
        # moving a function above another changes nothing a program does, nor, here, its fingerprint.
        self.out.extend(self._sorted(imports))
        for statement in rest:
            self.statement(statement)
        self.out.extend(self._sorted(definitions))
        return self.out[:MAX_TOKENS]

    def _sorted(self, statements: list[ast.stmt]) -> list[Token]:
        """The statements' tokens, the statements in the order of their own tokens (each written once)."""
        written = []
        for statement in statements:
            alone = _Canonical()
            alone.statement(statement)
            written.append(([t.text for t in alone.out], alone.out))
        return [token for _, tokens in sorted(written, key=lambda pair: pair[0]) for token in tokens]

    def emit(self, code: str, first: int, last: int) -> None:
        if len(self.out) < MAX_TOKENS:
            self.out.extend(Token(text, first, last) for text in _normalised(code))

    def block(self, header: str, node: ast.AST, body: list[ast.stmt], *, sort: bool = False) -> None:
        statements = _without_strings(body)
        first = node.lineno
        last = max(first, statements[0].lineno - 1) if statements and statements[0].lineno > first else first
        self.emit(header, first, last)
        self.out.append(Token(INDENT, first, last))
        for statement in statements:
            if not (sort and isinstance(statement, DEFINITIONS)):
                self.statement(statement)
        if sort:
            self.out.extend(self._sorted([s for s in statements if isinstance(s, DEFINITIONS)]))
        end = getattr(node, "end_lineno", None) or first
        self.out.append(Token(DEDENT, end, end))

    def statement(self, s: ast.stmt) -> None:
        u = ast.unparse
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in s.decorator_list:
                self.emit("@" + u(decorator), decorator.lineno, decorator.end_lineno or decorator.lineno)
            returns = f" -> {u(s.returns)}" if s.returns is not None else ""
            prefix = "async def" if isinstance(s, ast.AsyncFunctionDef) else "def"
            self.block(f"{prefix} {s.name}({u(s.args)}){returns}:", s, s.body)
        elif isinstance(s, ast.ClassDef):
            for decorator in s.decorator_list:
                self.emit("@" + u(decorator), decorator.lineno, decorator.end_lineno or decorator.lineno)
            bases = ", ".join([u(b) for b in s.bases] + [u(k) for k in s.keywords])
            self.block(f"class {s.name}({bases}):", s, s.body, sort=True)
        elif isinstance(s, ast.If):
            self.block(f"if {u(s.test)}:", s, s.body)
            self._orelse(s.orelse)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            prefix = "async for" if isinstance(s, ast.AsyncFor) else "for"
            self.block(f"{prefix} {u(s.target)} in {u(s.iter)}:", s, s.body)
            self._else(s.orelse)
        elif isinstance(s, ast.While):
            self.block(f"while {u(s.test)}:", s, s.body)
            self._else(s.orelse)
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            prefix = "async with" if isinstance(s, ast.AsyncWith) else "with"
            self.block(f"{prefix} {', '.join(u(item) for item in s.items)}:", s, s.body)
        elif isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            self.block("try:", s, s.body)
            star = "*" if type(s).__name__ == "TryStar" else ""
            for handler in s.handlers:
                caught = f" {u(handler.type)}" if handler.type is not None else ""
                name = f" as {handler.name}" if handler.name else ""
                self.block(f"except{star}{caught}{name}:", handler, handler.body)
            self._else(s.orelse)
            if s.finalbody:
                self.block("finally:", s.finalbody[0], s.finalbody)
        elif isinstance(s, ast.Match):
            self.emit(f"match {u(s.subject)}:", s.lineno, s.lineno)
            self.out.append(Token(INDENT, s.lineno, s.lineno))
            for case in s.cases:
                guard = f" if {u(case.guard)}" if case.guard is not None else ""
                self.block(f"case {u(case.pattern)}{guard}:", case.pattern, case.body)
            self.out.append(Token(DEDENT, s.end_lineno or s.lineno, s.end_lineno or s.lineno))
        else:
            self.emit(u(s), s.lineno, s.end_lineno or s.lineno)

    def _orelse(self, orelse: list[ast.stmt]) -> None:
        # `else: if ...` and `elif ...` are the same program; both read as `elif`.
        while len(orelse) == 1 and isinstance(orelse[0], ast.If):
            branch = orelse[0]
            self.block(f"elif {ast.unparse(branch.test)}:", branch, branch.body)
            orelse = branch.orelse
        self._else(orelse)

    def _else(self, orelse: list[ast.stmt]) -> None:
        if orelse:
            self.block("else:", orelse[0], orelse)


def _without_strings(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements that are only a string (docstrings, commented-out code in quotes) say nothing a program does."""
    kept = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                    and isinstance(s.value.value, (str, bytes)))]
    return kept


def _normalised(code: str) -> list[str]:
    """One statement's (or header's) tokens: names become V unless keywords, builtins or attributes."""
    out: list[str] = []
    previous = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type in DROPPED or tok.type in (tokenize.INDENT, tokenize.DEDENT):
                continue
            out.append(_word(tok, previous))
            previous = tok.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass    # a header alone (`if x:`) tokenizes whole; this only guards the unexpected
    return out


def _word(tok: tokenize.TokenInfo, previous: str) -> str:
    if tok.type == tokenize.NAME:
        return tok.string if tok.string in KEPT or previous == "." else "V"
    if tok.type == tokenize.STRING or tok.type in _FSTRING:
        return "S"
    return tok.string


def _raw_tokens(source: str) -> list[Token]:
    """A source that does not parse, tokenized as written: indentation counts here, as it must."""
    out: list[Token] = []
    previous = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in DROPPED:
                continue
            if tok.type == tokenize.INDENT:
                text = INDENT
            elif tok.type == tokenize.DEDENT:
                text = DEDENT
            else:
                text = _word(tok, previous)
            out.append(Token(text, tok.start[0], tok.end[0]))
            previous = tok.string
            if len(out) >= MAX_TOKENS:
                break
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out
