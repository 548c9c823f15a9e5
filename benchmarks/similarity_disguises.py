"""The similarity report against copies in disguise and honest pairs.

    python benchmarks/similarity_disguises.py [--json] [--record NAME]

The corpus is tests/service/disguises.py's: 8 accepted solutions, each copied
with one disguise at a time (renaming, comments, docstrings, blank lines,
one-line statements, split statements, reordered top-level definitions) and
with all of them at once; 15 disguises written by hand (`hand:` rows:
statements reordered, a helper extracted with the functions reordered and dead
code, loops turned into comprehensions, comments and dead statements, renaming)
of 3 accepted solutions; and every two accepted solutions of one problem
(written independently). `--record NAME` writes the scores to
benchmarks/results/similarity_NAME.json. Each copy is scored against its original, each
honest pair against each other, the problem's starter code removed, as the
service's report scores them. Printed: per disguise the lowest and median
score of its copies, and how many fall below the report's default threshold
(0.8); for the honest pairs the highest and median score and how many reach it.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "service"))   # the corpus the tests use too

import disguises  # noqa: E402
from judge.model.problem import load_problem  # noqa: E402
from judge.service.similarity import similar_pairs  # noqa: E402

THRESHOLD = 0.8


@dataclass(frozen=True)
class Sub:
    id: str
    user: str
    source: str


def score(a: str, b: str, starter: str) -> float:
    pairs = similar_pairs([Sub("a", "a", a), Sub("b", "b", b)], 0.0, boilerplate=starter)
    return pairs[0].similarity if pairs else 0.0


def starter_of(name: str) -> str:
    return load_problem(REPO, name.split("/")[0]).starter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--record", metavar="NAME", default=None,
                        help="Also write the scores to benchmarks/results/similarity_NAME.json.")
    args = parser.parse_args()
    started = time.perf_counter()
    by_disguise: dict[str, list[tuple[str, float]]] = {}
    for copy in disguises.copies():
        by_disguise.setdefault(copy.disguise, []).append(
            (copy.original, score(disguises.original(copy.original), copy.source, starter_of(copy.original))))
    for copy in disguises.hand_copies():
        by_disguise.setdefault(f"hand:{copy.disguise}", []).append(
            (copy.original, score(disguises.hand_original(copy.original), copy.source, starter_of(copy.original))))
    honest = [(f"{a} ~ {b}", score(sa, sb, starter_of(a))) for a, sa, b, sb in disguises.honest_pairs()]
    elapsed = time.perf_counter() - started
    result = {
        "disguises": {how: {"min": min(s for _, s in found), "median": statistics.median(s for _, s in found),
                            "below_threshold": sorted(n for n, s in found if s < THRESHOLD),
                            "copies": len(found), "scores": {n: round(s, 3) for n, s in found}}
                      for how, found in by_disguise.items()},
        "honest": {"max": max(s for _, s in honest), "median": statistics.median(s for _, s in honest),
                   "at_or_above_threshold": sorted(n for n, s in honest if s >= THRESHOLD),
                   "highest": sorted(honest, key=lambda p: -p[1])[:5], "pairs": len(honest),
                   "patchify": {n: round(s, 3) for n, s in honest if n.startswith("patchify/")}},
        "seconds": elapsed,
    }
    if args.record:
        out = REPO / "benchmarks" / "results" / f"similarity_{args.record}.json"
        out.parent.mkdir(exist_ok=True)
        out.write_text(json.dumps({k: v for k, v in result.items() if k != "seconds"}, indent=2) + "\n")
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{'disguise':<20} {'copies':>6} {'min':>6} {'median':>7}  below {THRESHOLD}")
    for how, row in result["disguises"].items():
        print(f"{how:<20} {row['copies']:>6} {row['min']:>6.3f} {row['median']:>7.3f}  "
              f"{', '.join(row['below_threshold']) or '-'}")
    h = result["honest"]
    print(f"honest pairs: {h['pairs']}, max {h['max']:.3f}, median {h['median']:.3f}, "
          f"{len(h['at_or_above_threshold'])} at or above {THRESHOLD}")
    for name, s in h["highest"]:
        print(f"  {s:.3f}  {name}")
    print(f"({elapsed:.1f} s)")


if __name__ == "__main__":
    main()
