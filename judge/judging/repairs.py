"""Repairs: one change to the learner's own file after which every value is right.

The mutation gate's operators (judge.judging.mutants) make small realistic changes,
and most are their own inverse: a sum for a mean and back, an axis moved by
one and back, `+` for `-`, a slice bound moved by one. Applied to a learner's
file, a change after which the file gives the expected value on every value
test locates the slip in the learner's own code, in the learner's own words:
their line, their code, and what the change makes of it. A repair is run like
the file itself, in the sandbox, so it proves only what it says: with it,
every value the tests look at is right. Two slips are repaired together: the
changes that bring the file's values nearest the expected ones are each made
with every other change, and the pair that makes every value right names both
(judge.judging.explain).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from judge.judging.mutants import Context, mutants, operator_names
from judge.judging.slips import merged
from judge.judging.slipwords import NOT_VALUES, words

MAX_REPAIRS = 400   # changes tried on one file at most, in the order of the file
PERMUTES = frozenset({"permute", "transpose"})


@dataclass(frozen=True)
class Repair:
    """The learner's file with one change (or two: `with_` the first): where, what it was, what is right."""

    index: int
    line: int           # the line of the learner's file it changes
    before: str         # the learner's code there
    after: str          # what the change puts there
    slip: str | None    # what the learner's code does wrong, in slip words (judge.judging.slipwords), when they say it
    source: str         # the whole changed file
    with_: "Repair | None" = None   # a second change: made together with this other one

    def message(self, partner: "Repair | None" = None, *, beside: bool = False) -> str:
        """What this change says, alone or as one of two changes that together make every value right, or
        (`beside`) as the change after which the file gives what another mistake named with it gives alone."""
        what = f"{self.slip}: " if self.slip else ""
        change = f"`{_short(self.after)}` in place of `{_short(self.before)}`" if self.before \
            else f"`{_short(self.after)}` first"
        if beside:
            return (f"line {self.line}: {what}{change}; with this change, your file gives what the other mistake "
                    "named here gives alone, on every test where it returns a value")
        # Where the file raises, a value test is not one the change was checked on: only the values it returns.
        if partner is None:
            return (f"line {self.line}: {what}with {change}, your file gives the expected value on every test "
                    "where it returns one")
        return (f"line {self.line}: {what}{change}; with this and the change at line {partner.line}, your file "
                "gives the expected value on every test where it returns one")


def repairs_of(source: str, context: Context, arguments: tuple[str, ...],
               rows: tuple[str, ...] = ()) -> list[Repair]:
    """Every value-changing one-step change of the learner's file `source`, in the order of the file, then
    the changes only a repair makes: two axes of a permute swapped that are not side by side, and the rows
    of the arguments named in `rows` (2-D or more, float) normalised first."""
    try:
        made = mutants(source, context, [name for name in operator_names() if name not in NOT_VALUES])
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    found = []
    for mutant in made[:MAX_REPAIRS]:
        # The learner's code is `before`; the slip it makes is what `after` (the right code) becomes there.
        slip = words(mutant.operator, mutant.after, mutant.before, arguments)
        found.append(Repair(len(found), mutant.line, mutant.before, mutant.after, slip, mutant.source))
    seen = {r.source for r in found}
    for line, before, after, slip, changed in [*_far_swaps(tree), *_normalise_rows(tree, context, rows)]:
        if changed is not None and changed not in seen and len(found) < MAX_REPAIRS:
            seen.add(changed)
            found.append(Repair(len(found), line, before, after, slip, changed))
    return found


def _far_swaps(tree: ast.Module) -> list[tuple[int, str, str, str | None, str | None]]:
    """A permute (or transpose) with two of its axes swapped that do not stand side by side: the gate's
    operator swaps neighbours only (a mutant is one small slip), but a learner's permute may be wrong by
    any two of its axes (`permute(0, 3, 2, 4, 1, 5)` for `(0, 3, 1, 4, 2, 5)`)."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PERMUTES):
            continue
        inline = len(node.args) >= 3
        axes = node.args if inline else (node.args[0].elts if len(node.args) == 1
                                         and isinstance(node.args[0], (ast.Tuple, ast.List)) else [])
        if len(axes) < 3:
            continue
        for i in range(len(axes)):
            for j in range(i + 2, len(axes)):
                before = ast.unparse(node)
                axes[i], axes[j] = axes[j], axes[i]
                after, changed = ast.unparse(node), ast.unparse(tree) + "\n"
                axes[i], axes[j] = axes[j], axes[i]
                found.append((node.lineno, before, after, f"`{node.func.attr}` with two of its axes in the wrong order",
                              changed))
    return found


def _normalise_rows(tree: ast.Module, context: Context, rows: tuple[str, ...]) -> list[tuple[int, str, str, str, str | None]]:
    """The entry point with the rows of one of `rows`' arguments (or of all of them) normalised first, as the
    statements of the contrastive problems ask: a normalisation left out is undone by no operator of the
    gate, and is the mistake that stands beside most others in a learner's loss."""
    entry = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == context.entry_point), None)
    if entry is None or not entry.body or not rows:
        return []
    body = entry.body
    start = 1 if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str) else 0
    # After the checks that raise (a normalised 1-D input would pass a rank check it fails as it came).
    while start < len(body) and isinstance(body[start], ast.If) and not body[start].orelse \
            and any(isinstance(n, ast.Raise) for n in ast.walk(body[start])):
        start += 1
    if start >= len(body):
        return []
    bound = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    torch = context.framework == "torch"
    module, alias = ("torch.nn.functional", "F") if torch else ("numpy", "np")
    groups = [(name,) for name in rows] + ([rows] if len(rows) > 1 else [])
    found = []
    for names in groups:
        lines = [f"{n} = F.normalize({n}, dim=-1)" if torch else
                 f"{n} = {n} / np.maximum(np.linalg.norm({n}, axis=-1, keepdims=True), 1e-12)" for n in names]
        added = ([] if alias in bound else [f"import {module} as {alias}"]) + lines
        original = entry.body
        entry.body = body[:start] + [s for line in added for s in ast.parse(line).body] + body[start:]
        try:
            changed = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
        finally:
            entry.body = original
        said = " and ".join(f"`{n}`" for n in names)
        found.append((body[start].lineno, "", "; ".join(lines), f"the rows of {said} are not normalised", changed))
    return found


def joined(base: str | None, first: Repair, second: Repair, index: int) -> Repair | None:
    """The file with both changes (separate stretches of it), as `second` made together with `first`."""
    if first.line == second.line and first.before == second.before:
        return None
    source = merged(base, first.source, second.source)
    if source is None:
        return None
    return Repair(index, second.line, second.before, second.after, second.slip, source, with_=first)


def unparsed(source: str) -> str | None:
    """The learner's file as judge.judging.mutants writes its changes (from its syntax tree), unchanged."""
    try:
        return ast.unparse(ast.parse(source)) + "\n"
    except (SyntaxError, ValueError, RecursionError):
        return None


def _short(code: str, limit: int = 80) -> str:
    code = " ".join(code.split())
    return code if len(code) <= limit else code[:limit - 3] + "..."
