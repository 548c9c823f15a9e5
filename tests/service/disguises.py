"""A corpus for the similarity report: accepted solutions, copies of them in disguise, and honest pairs.

Each disguise is what a learner copying a solution does to hide it, applied to
the source text the way an editor would (never by regenerating the code, so
what the copy looks like is what a learner hands in):

- `rename`: every name the file defines (functions but the entry point,
  classes, parameters, variables) gets another one;
- `comments`: a comment above every other statement and after some lines;
- `docstrings`: a docstring in every function and class;
- `blank_lines`: a blank line after every statement line;
- `one_line`: an `if` with a one-line body joined onto one line
  (`if c: raise ...`), and consecutive simple statements joined with `;`;
- `split`: every bracketed list broken after each comma, and assignments
  continued with a backslash;
- `reorder`: the top-level definitions in another order (files with two or more).

`combined` applies all of them. Those are mechanical; `hand_copies` are disguises
written by hand in hand_disguises/ (PROBLEM.ORIGINAL.HOW.py, beside the
accepted file they disguise as it was then, PROBLEM.ORIGINAL.py, since the
shipped one may change), the edits that take minutes and change what a token
stream sees:

- `reordered`: independent statements (and a dict's keys) in another order;
- `helper`: a helper extracted, the functions reordered, comments and dead code
  (an unused function, an unused variable) added;
- `comprehension`: loops turned into comprehensions or `any(...)`, or back;
- `dead`: comments and dead statements (unused variables, `if False:`, a
  pointless `return None`);
- `renamed`: every local name and helper renamed.

Honest pairs are the accepted solutions of one problem, two by two: written
independently, they must stay apart.
benchmarks/similarity_disguises.py prints the scores; tests/service/test_similarity.py
holds them to account.
"""
from __future__ import annotations

import ast
import builtins
import io
import itertools
import keyword
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
# Accepted solutions long enough to be worth copying; most have several top-level definitions.
ORIGINALS = ("patchify/reshape_permute", "vit_block/from_scratch_per_head", "resize_pos_embed/separable_cubic",
             "vit_cost/layer_table", "linear_probe/dual_form_per_class", "self_attention/einsum_max_subtracted",
             "sincos_2d_positions/mae_meshgrid", "random_masking/mae_gather")
KEEP = frozenset(keyword.kwlist) | frozenset(dir(builtins))


def original(name: str) -> str:
    problem, file = name.split("/")
    return (REPO / "submissions" / problem / "accepted" / f"{file}.py").read_text(encoding="utf-8")


def entry_point(name: str) -> str:
    return name.split("/")[0]


# ---------------------------------------------------------------- the disguises
def rename(source: str, keep: str) -> str:
    """Every name the file binds, but `keep` (the entry point), becomes another (attributes untouched)."""
    tree = ast.parse(source)
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
    keyword_args = {k.arg for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords if k.arg}
    # What a class body binds (methods, fields) is reached as an attribute: it keeps its name.
    members = {target.id if isinstance(target, ast.Name) else getattr(target, "name", "")
               for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for item in node.body
               for target in ([item] if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                              else getattr(item, "targets", None) or [getattr(item, "target", None)])
               if target is not None}
    bound -= {keep, "self", "cls"} | KEEP | members
    names = {old: f"{'' if not old.startswith('_') else '_'}my_{index}_{old.strip('_')[::-1]}"
             for index, old in enumerate(sorted(bound))}
    out, previous = [], None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        text = tok.string
        after_dot = previous is not None and previous.string == "."
        # A keyword argument of a call keeps its name (a function the file did not write expects it).
        is_keyword = text in keyword_args and _next_is_equals(source, tok)
        if tok.type == tokenize.NAME and text in names and not after_dot and not is_keyword:
            text = names[text]
        elif tok.type == tokenize.STRING and text.lstrip("rRbB").lower().startswith("f"):
            # Python 3.11 tokenizes an f-string whole: rename inside its replacement fields.
            text = re.sub(r"\{[^{}]*\}", lambda field: re.sub(
                r"(?<![.\w])([A-Za-z_]\w*)", lambda m: names.get(m.group(1), m.group(1)), field.group()), text)
        out.append((tok.type, text, tok.start, tok.end, tok.line))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok
    return _untokenize(out, source)


def comments(source: str, keep: str = "") -> str:
    lines, out = source.splitlines(), []
    starts = _statement_lines(source)
    for number, line in enumerate(lines, 1):
        if number in starts and number % 2 == 0:
            indent = line[:len(line) - len(line.lstrip())]
            out.append(f"{indent}# step {number}: do the next thing carefully")
        if number in starts and number % 3 == 0 and not line.rstrip().endswith(("\\", ",", "(", "[", "{")) \
                and '"""' not in line and "'''" not in line:
            line = f"{line}  # see above"
        out.append(line)
    return "\n".join(out) + "\n"


def docstrings(source: str, keep: str = "") -> str:
    tree = ast.parse(source)
    lines = source.splitlines()
    inserts: dict[int, str] = {}          # after line n (1-based) the docstring, indented as the body
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if first.lineno == node.lineno:     # a one-line body: leave it
                continue
            indent = lines[first.lineno - 1][:first.col_offset]
            inserts[first.lineno - 1] = f'{indent}"""{node.name.strip("_").replace("_", " ")}: does what it says.\n' \
                                        f'\n{indent}Written for the course; see the statement.\n{indent}"""'
    out = []
    for number, line in enumerate(lines, 1):
        out.append(line)
        if number in inserts:
            out.append(inserts[number])
    return "\n".join(out) + "\n"


def blank_lines(source: str, keep: str = "") -> str:
    ends = _statement_ends(source)
    out = []
    for number, line in enumerate(source.splitlines(), 1):
        out.append(line)
        if number in ends and not line.rstrip().endswith("\\"):
            out.append("")
    return "\n".join(out) + "\n"


def one_line(source: str, keep: str = "") -> str:
    """`if c:` and its one simple one-line statement on one line; runs of simple statements joined by `;`."""
    tree = ast.parse(source)
    lines = source.splitlines()
    join_into: dict[int, int] = {}        # line (1-based) -> the line it is appended to
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.If) and len(node.body) == 1 and not node.orelse and _simple(node.body[0]) \
                and node.body[0].lineno == node.body[0].end_lineno == node.lineno + 1 \
                and _header_one_line(node, lines):
            join_into[node.body[0].lineno] = node.lineno
        if isinstance(body, list):
            for a, b in zip(body, body[1:]):
                if _simple(a) and _simple(b) and a.lineno == a.end_lineno and b.lineno == b.end_lineno == a.lineno + 1 \
                        and b.lineno not in join_into and a.lineno not in join_into \
                        and not lines[a.lineno - 1].rstrip().endswith("\\") and "#" not in lines[a.lineno - 1]:
                    join_into[b.lineno] = a.lineno
    out: list[str] = []
    where: dict[int, int] = {}            # source line -> index in out
    for number, line in enumerate(lines, 1):
        target = join_into.get(number)
        if target is not None and target in where:
            glue = " " if out[where[target]].rstrip().endswith(":") else "; "
            out[where[target]] = out[where[target]].rstrip() + glue + line.strip()
            where[number] = where[target]
            continue
        where[number] = len(out)
        out.append(line)
    return "\n".join(out) + "\n"


def split(source: str, keep: str = "") -> str:
    """Break bracketed lists after each comma, and continue assignments after `=` with a backslash."""
    breaks: dict[tuple[int, int], str] = {}   # (row, col after the token) -> the text to insert
    depth_opened: list[tuple[int, int]] = []
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for index, tok in enumerate(tokens):
        if tok.type != tokenize.OP:
            continue
        if tok.string in "([{":
            depth_opened.append(tok.end)
        elif tok.string in ")]}":
            if depth_opened:
                depth_opened.pop()
        elif tok.string == "," and depth_opened:
            follower = tokens[index + 1] if index + 1 < len(tokens) else None
            if follower is not None and follower.start[0] == tok.start[0] and follower.string not in ")]}":
                breaks[tok.end] = "\n" + " " * depth_opened[-1][1]
        elif tok.string == "=" and not depth_opened and not any(r == tok.start[0] for r, _ in breaks):
            follower = tokens[index + 1] if index + 1 < len(tokens) else None
            if follower is not None and follower.start[0] == tok.start[0]:
                line = tok.line
                indent = line[:len(line) - len(line.lstrip())]
                breaks[tok.end] = " \\\n" + indent + "        "
    out, row_lines = [], source.splitlines(keepends=True)
    for row, line in enumerate(row_lines, 1):
        cols = sorted(col for (r, col) in breaks if r == row)
        if not cols:
            out.append(line)
            continue
        pieces, last = [], 0
        for col in cols:
            pieces.append(line[last:col].rstrip(" ") + breaks[(row, col)])
            last = col
            while last < len(line) and line[last] == " ":
                last += 1
        pieces.append(line[last:])
        out.append("".join(pieces))
    return "".join(out)


def reorder(source: str, keep: str = "") -> str:
    """The top-level definitions (with their decorators and the comments above them) in reverse order."""
    tree = ast.parse(source)
    lines = source.splitlines()
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if len(defs) < 2:
        return source
    first = min(d.decorator_list[0].lineno if d.decorator_list else d.lineno for d in defs)
    blocks, spans = [], []
    for d in defs:
        start = d.decorator_list[0].lineno if d.decorator_list else d.lineno
        spans.append((start, d.end_lineno))
    # Everything between the definitions (constants, comments) stays before them, in order.
    taken = {n for s, e in spans for n in range(s, e + 1)}
    rest = [lines[n - 1] for n in range(first, len(lines) + 1) if n not in taken and lines[n - 1].strip()]
    for start, end in reversed(spans):
        blocks.append("\n".join(lines[start - 1:end]))
    head = lines[:first - 1]
    return "\n".join(head + rest + [""] + "\n\n\n".join(blocks).splitlines()) + "\n"


DISGUISES: dict[str, Callable[[str, str], str]] = {
    "rename": rename, "comments": comments, "docstrings": docstrings, "blank_lines": blank_lines,
    "one_line": one_line, "split": split, "reorder": reorder,
}
ORDER = ("rename", "docstrings", "one_line", "reorder", "split", "comments", "blank_lines")  # for `combined`


def disguise(source: str, how: str, keep: str) -> str:
    if how == "combined":
        for step in ORDER:
            source = DISGUISES[step](source, keep)
        return source
    return DISGUISES[how](source, keep)


@dataclass(frozen=True)
class Copy:
    original: str      # e.g. patchify/reshape_permute
    disguise: str      # a key of DISGUISES, or "combined"
    source: str


def copies() -> list[Copy]:
    """Every original in every disguise alone and all combined (reorder only where it reorders)."""
    found = []
    for name in ORIGINALS:
        text = original(name)
        for how in (*DISGUISES, "combined"):
            copy = disguise(text, how, entry_point(name))
            if how == "reorder" and copy == text:
                continue
            found.append(Copy(name, how, copy))
    return found


HAND = Path(__file__).resolve().parent / "hand_disguises"
HAND_DISGUISES = ("reordered", "helper", "comprehension", "dead", "renamed")


def hand_copies() -> list[Copy]:
    """Every disguise written by hand, with the accepted solution it disguises."""
    found = []
    for path in sorted(HAND.glob("*.*.*.py")):
        problem, file, how = path.stem.split(".")
        found.append(Copy(f"{problem}/{file}", how, path.read_text(encoding="utf-8")))
    return found


def hand_original(name: str) -> str:
    """The accepted file `name` (PROBLEM/FILE) as it was when its hand disguises were written."""
    problem, file = name.split("/")
    return (HAND / f"{problem}.{file}.py").read_text(encoding="utf-8")


def honest_pairs() -> list[tuple[str, str, str, str]]:
    """(name a, source a, name b, source b) for every two accepted solutions of one problem."""
    pairs = []
    for problem in sorted(p.name for p in (REPO / "submissions").iterdir() if (p / "accepted").is_dir()):
        files = sorted((REPO / "submissions" / problem / "accepted").glob("*.py"))
        for a, b in itertools.combinations(files, 2):
            pairs.append((f"{problem}/{a.stem}", a.read_text(encoding="utf-8"),
                          f"{problem}/{b.stem}", b.read_text(encoding="utf-8")))
    return pairs


# ---------------------------------------------------------------- helpers
def _simple(node: ast.stmt) -> bool:
    return isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise, ast.Pass,
                             ast.Break, ast.Continue, ast.Import, ast.ImportFrom, ast.Assert, ast.Delete))


def _header_one_line(node: ast.If, lines: list[str]) -> bool:
    return node.test.end_lineno == node.lineno and lines[node.lineno - 1].rstrip().endswith(":") \
        and "#" not in lines[node.lineno - 1] and "#" not in lines[node.body[0].lineno - 1]


def _statement_lines(source: str) -> set[int]:
    """Lines a statement starts at the beginning of (a comment may go above them)."""
    lines = source.splitlines()
    return {n.lineno for n in ast.walk(ast.parse(source)) if isinstance(n, ast.stmt)
            and lines[n.lineno - 1][:n.col_offset].strip() == ""
            and not (n.lineno > 1 and lines[n.lineno - 2].rstrip().endswith("\\"))}


def _statement_ends(source: str) -> set[int]:
    """Last lines of simple statements (a blank line may follow them)."""
    return {n.end_lineno for n in ast.walk(ast.parse(source)) if isinstance(n, ast.stmt) and _simple(n)}


def _next_is_equals(source: str, tok: tokenize.TokenInfo) -> bool:
    rest = tok.line[tok.end[1]:].lstrip()
    return rest.startswith("=") and not rest.startswith("==")


def _untokenize(tokens: list[tuple], source: str) -> str:
    """Rebuild the text with the tokens' new strings, keeping every original gap (spaces, line breaks)."""
    lines = source.splitlines(keepends=True)
    out, row, col = [], 1, 0
    for kind, text, (srow, scol), (erow, ecol), _ in tokens:
        if kind in (tokenize.ENCODING, tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        while row < srow:
            out.append(lines[row - 1][col:])
            row, col = row + 1, 0
        out.append(lines[row - 1][col:scol])
        out.append(text)
        row, col = erow, ecol
    while row <= len(lines):
        out.append(lines[row - 1][col:])
        row, col = row + 1, 0
    return "".join(out)
