"""How unusual a pair's similarity is within its class: the class's own pairs on one problem as the yardstick.

A short problem has one natural solution that many learners find alone, so a
fixed threshold flags half a class there and nobody elsewhere. Every pair of
learners who submitted to the problem is a sample (a pair sharing nothing
scores 0); their median is what the class typically shares and the spread is
the median absolute deviation scaled to a standard deviation (x 1.4826), at
least MIN_SPREAD, so a class whose pairs all score alike does not make a
hair's difference look extreme. A score's `z` is how many spreads it lies above
the median, its `percentile` the share of the class's pairs scoring below it.
With fewer than MIN_PAIRS pairs there is no yardstick: `z` is None and a
threshold alone decides.
"""
from __future__ import annotations

import bisect
import statistics
from dataclasses import dataclass

MIN_PAIRS = 6            # four learners: fewer pairs say nothing about what is typical
MIN_SPREAD = 0.05
UNUSUAL = 3.0            # the report's default: this many spreads above the class's typical pair


@dataclass(frozen=True)
class ClassScores:
    """The scores of every pair of a class's learners on one problem."""

    pairs: int
    median: float
    spread: float
    ordered: tuple[float, ...]

    def z(self, score: float) -> float | None:
        if self.pairs < MIN_PAIRS:
            return None
        return (score - self.median) / self.spread

    def percentile(self, score: float) -> float:
        """The share of the class's pairs (0-100) scoring below `score`."""
        if not self.ordered:
            return 0.0
        return 100.0 * bisect.bisect_left(self.ordered, score) / len(self.ordered)

    def unusual(self, score: float, at_least: float) -> bool:
        """Whether `score` is at least `at_least` spreads above the median (always, without a yardstick)."""
        z = self.z(score)
        return z is None or at_least <= 0 or z >= at_least


def class_scores(shared: list[float], learners: int) -> ClassScores:
    """The yardstick of a class of `learners` whose pairs sharing anything scored `shared` (the rest: 0)."""
    pairs = learners * (learners - 1) // 2
    scores = sorted([0.0] * max(0, pairs - len(shared)) + list(shared))
    if not scores:
        return ClassScores(0, 0.0, MIN_SPREAD, ())
    median = statistics.median(scores)
    mad = statistics.median(abs(s - median) for s in scores)
    return ClassScores(len(scores), median, max(MIN_SPREAD, 1.4826 * mad), tuple(scores))
