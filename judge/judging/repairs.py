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
        change = f"`{_short(self.after)}` in place of `{_short(self.before)}`"
        if beside:
            return (f"line {self.line}: {what}{change}; with this change, your file gives what the other mistake "
                    "named here gives alone, on every test where it returns a value")
        # Where the file raises, a value test is not one the change was checked on: only the values it returns.
        if partner is None:
            return (f"line {self.line}: {what}with {change}, your file gives the expected value on every test "
                    "where it returns one")
        return (f"line {self.line}: {what}{change}; with this and the change at line {partner.line}, your file "
                "gives the expected value on every test where it returns one")


def repairs_of(source: str, context: Context, arguments: tuple[str, ...]) -> list[Repair]:
    """Every value-changing one-step change of the learner's file `source`, in the order of the file."""
    try:
        made = mutants(source, context, [name for name in operator_names() if name not in NOT_VALUES])
    except (SyntaxError, ValueError, RecursionError):
        return []
    found = []
    for mutant in made[:MAX_REPAIRS]:
        # The learner's code is `before`; the slip it makes is what `after` (the right code) becomes there.
        slip = words(mutant.operator, mutant.after, mutant.before, arguments)
        found.append(Repair(len(found), mutant.line, mutant.before, mutant.after, slip, mutant.source))
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
