"""Where a mistake's words come from: the map from each finding to the sentence a report says.

- a trap (judge.judging.traps, judge.judging.suspects): its author's `message` in the problem's YAML, as
  written (`name_trap`);
- a relation of the learner's value to the expected one (judge.judging.diagnose: `relations`, `generic`):
  each Diagnosis carries its ways of saying it (`wordings`), most specific first (slices and layouts are
  said by `say_slices` and `say_layouts` here), and
  judge.judging.explain.common_claim keeps the words true on every failing test (`name_relation`);
- a relation of the learner's value to a trap's output: the same words about the known mistake's value
  (`name_trap_relation`);
- a slip of a trusted solution (judge.judging.slips): judge.judging.slipwords.words says the replacement in
  a learner's words, introduced here as one slip or one of two (`name_slip`, `name_slip_of_two`);
- a change of the learner's own file (judge.judging.repairs): `Repair.message` says its line, its slip words
  where they say it and the code it changes; named here by its slip words (`name_repair`, `name_repair_beside`);
- a value where an error was due: the statement's rule quoted (judge.judging.grading's `_stated_errors`);
- a mistake named on an earlier test: referred to, not repeated (judge.judging.grading.SayOnce); the line a
  face prints is judge.base.report.Mistake's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from judge.judging.evidence import Named
from judge.judging.slipwords import slug

if TYPE_CHECKING:
    from judge.judging.diagnose import Diagnosis
    from judge.judging.repairs import Repair
    from judge.judging.slips import Slip
    from judge.model.problem import Trap

# How a slip model's words are introduced: they describe a change to the right computation, not the learner's code.
ONE_SLIP = "your output is what the right computation gives with one slip: "
TWO_SLIPS = "your output is what the right computation gives with two slips, one of them: "


def name_trap(trap: Trap) -> Named:
    """A trap as its author says it."""
    return Named(trap.name, trap.message, True)


def name_relation(name: str, claim: str) -> Named:
    """A relation to the expected value, in the words true on every test it is named on."""
    return Named(name, claim, False)


def name_trap_relation(diagnosis: Diagnosis) -> Named:
    """A relation of the learner's value to a trap's output: said of the known mistake's value."""
    return Named(diagnosis.name, diagnosis.message.replace("expected", "known mistake's", 1), False)


def name_slip(slip: Slip) -> Named:
    """One slip of a trusted solution, in a learner's words."""
    return Named(slip.name, f"{ONE_SLIP}{slip.words}", False)


def name_slips_together(slips: Slip) -> Named:
    """Two slips made in one model: named as the model of both (each part is named where it shows)."""
    return Named(slips.name, slips.words, False)


def name_slip_of_two(name: str, words: str) -> Named:
    """One of two slips that together give the learner's output."""
    return Named(name, f"{TWO_SLIPS}{words}", False)


def name_repair(repair: Repair, partner: Repair | None = None) -> Named:
    """A repair as a mistake: named by its slip words where they say it (else as a change of the file)."""
    name = slug(repair.slip).replace("slip_", "repair_", 1) if repair.slip else "repair_unsaid"
    return Named(name, repair.message(partner), False)


def name_repair_beside(name: str, repair: Repair) -> Named:
    """A repair said where it leaves another mistake named with it."""
    return Named(name, repair.message(beside=True), False)


def say_slices(ndim: int, axis: int, count: int = 2) -> str:
    """What the slices along `axis` are called: rows, columns, tokens; singular for one."""
    if ndim == 2:
        word = ("row", "column")[axis]
    elif ndim == 3 and axis == 1:
        word = "token"
    else:
        return f"slice{'s' if count != 1 else ''} along axis {axis}"
    return f"{word}{'s' if count != 1 else ''}" + (" (axis 1)" if ndim == 3 else "")


def say_layouts(order: np.ndarray) -> list[str]:
    """Every known layout `order` (new position -> old position) puts the slices in, in words: words that do
    not depend on the sizes first, so that tests of other sizes can say the same thing (two columns swapped
    are in reverse order and also pairs swapped; a report says what is true on each of its tests)."""
    m = len(order)
    identity = np.arange(m)
    found = []
    if m % 2 == 0 and np.array_equal(order, identity ^ 1):
        found.append("with the two of every pair (2i, 2i + 1) swapped")
    if m % 2 == 0 and m > 2 and np.array_equal(order, np.concatenate([identity[0::2], identity[1::2]])):
        found.append("with the even-indexed ones first, then the odd-indexed ones (two halves where they interleave)")
    if m % 2 == 0 and m > 2 and np.array_equal(order, identity.reshape(2, -1).T.reshape(-1)):
        found.append("with the first half and the second half interleaved (interleaved where they are two halves)")
    shift = int(-order[0]) % m  # the one rotation np.roll(identity, shift) that starts as `order` does
    if shift and np.array_equal(order, np.roll(identity, shift)):
        if shift == m - 1:
            found.append("with the first one moved to the end (each other one a place earlier)")
        if shift == 1:
            found.append("with the last one moved to the front (each other one a place later)")
    if np.array_equal(order, identity[::-1]):
        found.append("in reverse order")
    if shift and np.array_equal(order, np.roll(identity, shift)) and shift not in (1, m - 1):
        found.append(f"in an order rotated by {shift} positions")
    for rows in range(2, m // 2 + 1):
        if m % rows == 0 and np.array_equal(order, identity.reshape(rows, m // rows).T.reshape(-1)):
            found.append(f"in column-major order: read down the columns of a {rows} x {m // rows} grid instead "
                         "of along its rows")
    return found
