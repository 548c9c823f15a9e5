"""Similar submissions within a course: winnowing fingerprints over a canonical form of the code.

Each source is read as the tokens of one canonical layout (judge.service.source_tokens), so comments,
layout, renamed variables, reordered definitions and the rewrites of judge.service.canonical do not count.
Of every k consecutive tokens a hash is taken and winnowing (Schleimer, Wilkerson, Aiken
2003) keeps the smallest in each window of w hashes: the fingerprint.
Fingerprints of the problem's starter code are dropped (every submission
shares it). Two submissions' similarity is the share of the smaller
fingerprint set found in the other, so code copied into a longer file still
shows; every token keeps its lines, so the regions two submissions share can
be marked in each (`shared_regions`). `similar_pairs` compares one problem's submissions; `course_pairs`
puts each pair of learners' scores on every problem side by side.
copydetect does the same on raw tokens but brings matplotlib and tqdm for its
HTML report; the service has a page of its own (judge.service.review).
"""
from __future__ import annotations

import ast
import hashlib
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from judge.service.classnorm import UNUSUAL, class_scores
from judge.service.source_tokens import DEFINITIONS, Token, located_tokens

K = 12                 # tokens per hashed k-gram: shorter runs are common idiom, not copying
WINDOW = 6             # any shared run of K + WINDOW - 1 tokens is certain to share a fingerprint


class Submitted(Protocol):
    """What the report reads of a stored submission (judge.service.storage.Submission has it)."""

    id: str
    user: str
    source: str



@dataclass(frozen=True)
class Pair:
    a: str                 # learner
    b: str
    similarity: float      # 0..1
    a_submission: str
    b_submission: str
    z: float | None = None         # spreads above the class's typical pair (judge.service.classnorm)
    percentile: float = 0.0        # share of the class's pairs scoring below
    class_median: float = 0.0

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "similarity": round(self.similarity, 3), "a_submission": self.a_submission,
                "b_submission": self.b_submission, **_unusual_json(self.z, self.percentile, self.class_median)}


@dataclass(frozen=True)
class ProblemScore:
    """Two learners on one problem: their most alike submissions, how alike, and how unusual in the class."""

    problem: str
    similarity: float
    a_submission: str
    b_submission: str
    z: float | None = None
    percentile: float = 0.0
    class_median: float = 0.0
    flagged: bool = False          # at the threshold and unusual in the class

    def to_json(self) -> dict:
        return {"problem": self.problem, "similarity": round(self.similarity, 3), "a_submission": self.a_submission,
                "b_submission": self.b_submission, "flagged": self.flagged,
                **_unusual_json(self.z, self.percentile, self.class_median)}


@dataclass(frozen=True)
class CoursePair:
    """Two learners flagged on at least one problem, with their score on every problem both submitted to."""

    a: str
    b: str
    problems: tuple[ProblemScore, ...]     # most alike first
    flagged: int                           # problems at the threshold and unusual in the class

    @property
    def mean(self) -> float:
        return sum(p.similarity for p in self.problems) / len(self.problems)

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "flagged": self.flagged, "shared": len(self.problems),
                "mean": round(self.mean, 3), "problems": [p.to_json() for p in self.problems]}


@dataclass(frozen=True)
class Found:
    """What a report lists (`pairs`), and how many pairs reached the threshold but are common in their class."""

    pairs: list
    common: int = 0


def _unusual_json(z: float | None, percentile: float, median: float) -> dict:
    return {"z": round(z, 2) if z is not None else None, "percentile": round(percentile, 1),
            "class_median": round(median, 3)}


# ------------------------------------------------------------------ fingerprints
_MODULUS = (1 << 61) - 1     # a Mersenne prime: k-gram hashes as a polynomial rolling hash modulo it
_BASE = 1_000_003


def _kgram_hashes(toks: Sequence[Token], k: int) -> list[int]:
    """The hash of every run of `k` tokens, rolled along in one pass (Rabin-Karp). Each token's number is
    its text's CRC-32, the same in every process, so fingerprints are too."""
    numbers: dict[str, int] = {}
    ids = [numbers.setdefault(t.text, zlib.crc32(t.text.encode("utf-8", "surrogatepass")) + 1) for t in toks]
    if len(ids) < k:
        return []
    high = pow(_BASE, k - 1, _MODULUS)
    h = 0
    for x in ids[:k]:
        h = (h * _BASE + x) % _MODULUS
    hashes = [h]
    for i in range(k, len(ids)):
        h = ((h - ids[i - k] * high) * _BASE + ids[i]) % _MODULUS
        hashes.append(h)
    return hashes


def _winnow(hashes: list[int], window: int) -> frozenset[int]:
    if len(hashes) <= window:
        return frozenset(hashes)
    return frozenset(min(hashes[i:i + window]) for i in range(len(hashes) - window + 1))


def fingerprint(source: str, k: int = K, window: int = WINDOW, *, roots: frozenset[str] | None = None) -> frozenset[int]:
    return _winnow(_kgram_hashes(located_tokens(source, roots), k), window)


def roots_of(starter: str) -> frozenset[str] | None:
    """The functions and classes the starter code defines: what a submission's program is entered by (None:
    no starter, or one that does not parse, and every function of a submission counts)."""
    try:
        tree = ast.parse(starter) if starter else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names = frozenset(s.name for s in tree.body if isinstance(s, DEFINITIONS)) if tree is not None else frozenset()
    return names or None


def pair_similarity(a: str, b: str, starter: str = "",
                    prints: Callable[..., frozenset[int]] = fingerprint) -> float:
    """How alike two sources of one problem are, its starter code left out (as the report scores them)."""
    roots = roots_of(starter)
    common = prints(starter, roots=roots) if starter else frozenset()
    return similarity(prints(a, roots=roots) - common, prints(b, roots=roots) - common)


class Fingerprints:
    """`fingerprint`, keeping the last `size` results (by the source's digest): a service compares the
    same stored sources on every report and page, and parsing each again would repeat the costliest step."""

    def __init__(self, size: int = 20_000):
        self.size = size
        self._kept: OrderedDict[bytes, frozenset[int]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, source: str, *, roots: frozenset[str] | None = None) -> frozenset[int]:
        digest = hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=16)
        digest.update(repr(sorted(roots) if roots is not None else None).encode())
        key = digest.digest()
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        found = fingerprint(source, roots=roots)
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return found


def similarity(a: frozenset[int], b: frozenset[int]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def shared_regions(a: str, b: str, boilerplate: str = "",
                   k: int = K) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The line ranges (1-based, inclusive, merged) of `a` and of `b` that share a run of `k` tokens with
    the other, outside the starter code: what the review page marks."""
    roots = roots_of(boilerplate)
    common = set(_kgram_hashes(located_tokens(boilerplate, roots), k)) if boilerplate else set()
    ta, tb = located_tokens(a, roots), located_tokens(b, roots)
    ha, hb = _kgram_hashes(ta, k), _kgram_hashes(tb, k)
    shared = (set(ha) & set(hb)) - common
    return _ranges(ta, ha, shared, k), _ranges(tb, hb, shared, k)


def _ranges(toks: list[Token], hashes: list[int], shared: set[int], k: int) -> list[tuple[int, int]]:
    spans = sorted((min(t.first for t in toks[i:i + k]), max(t.last for t in toks[i:i + k]))
                   for i, h in enumerate(hashes) if h in shared)
    merged: list[tuple[int, int]] = []
    for first, last in spans:
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


# ------------------------------------------------------------------ pairs
def _scores(submissions: Sequence[Submitted], boilerplate: str,
            prints: Callable[..., frozenset[int]] = fingerprint) -> dict[tuple[str, str], tuple[float, str, str]]:
    """For each two learners sharing any fingerprint: their highest score and its two submissions
    (keyed and ordered by learner name; of equally alike submissions, the earliest pair in the order given).

    Submissions with the same fingerprint (resubmissions, copies differing only in what the canonical
    form drops) are scored once as a group, so a class handing in a few common solutions costs a
    comparison per distinct solution, not per pair of submissions.
    """
    roots = roots_of(boilerplate)
    common = prints(boilerplate, roots=roots) if boilerplate else frozenset()
    groups: dict[frozenset[int], list[int]] = {}
    for index, s in enumerate(submissions):
        fp = prints(s.source, roots=roots) - common
        if fp:
            groups.setdefault(fp, []).append(index)
    distinct = list(groups)
    holders: dict[int, list[int]] = {}
    for g, fp in enumerate(distinct):
        for h in fp:
            holders.setdefault(h, []).append(g)
    compared: set[tuple[int, int]] = {(g, g) for g, fp in enumerate(distinct) if len(groups[fp]) > 1}
    for held in holders.values():     # only groups sharing a fingerprint are compared
        for x in range(len(held)):
            for y in range(x + 1, len(held)):
                compared.add((held[x], held[y]))
    best: dict[tuple[str, str], tuple[float, tuple[int, int], str, str]] = {}
    for ga, gb in compared:
        score = 1.0 if ga == gb else similarity(distinct[ga], distinct[gb])
        for i in groups[distinct[ga]]:
            for j in groups[distinct[gb]]:
                if (ga == gb and j <= i) or submissions[i].user == submissions[j].user:
                    continue
                s, t = submissions[min(i, j)], submissions[max(i, j)]
                order = (min(i, j), max(i, j))
                if (s.user, s.id) > (t.user, t.id):
                    s, t = t, s
                key = (s.user, t.user)
                kept = best.get(key)
                if kept is None or score > kept[0] or (score == kept[0] and order < kept[1]):
                    best[key] = (score, order, s.id, t.id)
    return {key: (score, a, b) for key, (score, _, a, b) in best.items()}


def _judged(submissions: Sequence[Submitted], boilerplate: str, prints: Callable[..., frozenset[int]]):
    scores = _scores(submissions, boilerplate, prints)
    return scores, class_scores([score for score, _, _ in scores.values()], len({s.user for s in submissions}))


def similar_pairs(submissions: Sequence[Submitted], threshold: float, boilerplate: str = "",
                  prints: Callable[..., frozenset[int]] = fingerprint, unusual: float = 0.0) -> list[Pair]:
    """Pairs of different learners with submissions to one problem at least `threshold` alike and (with
    `unusual` above 0) at least that many spreads above the class's typical pair (judge.service.classnorm),
    most alike first; each pair of learners appears once, with their most alike submissions. (`prints`: a
    `Fingerprints` keeps them between reports.)"""
    return similar_found(submissions, threshold, boilerplate, prints, unusual).pairs


def similar_found(submissions: Sequence[Submitted], threshold: float, boilerplate: str = "",
                  prints: Callable[..., frozenset[int]] = fingerprint, unusual: float = UNUSUAL) -> Found:
    """`similar_pairs`, and how many pairs reached `threshold` but are common in the class."""
    scores, yardstick = _judged(submissions, boilerplate, prints)
    reached = [Pair(a, b, score, sa, sb, yardstick.z(score), yardstick.percentile(score), yardstick.median)
               for (a, b), (score, sa, sb) in scores.items() if score >= threshold and score > 0]
    listed = [p for p in reached if yardstick.unusual(p.similarity, unusual)]
    return Found(sorted(listed, key=lambda p: (-p.similarity, p.a, p.b)), len(reached) - len(listed))


def course_pairs(by_problem: Mapping[str, Sequence[Submitted]], threshold: float,
                 starters: Mapping[str, str] | None = None,
                 prints: Callable[..., frozenset[int]] = fingerprint, unusual: float = 0.0) -> list[CoursePair]:
    """Pairs of learners flagged on one problem or more (at least `threshold` alike and, with `unusual`
    above 0, that many spreads above the class's typical pair there), with their scores on every problem both
    submitted to (0 where nothing is shared): one problem alike may be chance, several rarely are. Most
    problems flagged first, then the highest mean."""
    return course_found(by_problem, threshold, starters, prints, unusual).pairs


def course_found(by_problem: Mapping[str, Sequence[Submitted]], threshold: float,
                 starters: Mapping[str, str] | None = None,
                 prints: Callable[..., frozenset[int]] = fingerprint, unusual: float = UNUSUAL) -> Found:
    """`course_pairs`, and how many (pair, problem) scores reached `threshold` but are common in the class."""
    starters = starters or {}
    judged = {problem: _judged(subs, starters.get(problem, ""), prints) for problem, subs in by_problem.items()}
    latest: dict[tuple[str, str], str] = {}     # (problem, learner) -> their latest submission
    for problem, subs in by_problem.items():
        for s in subs:
            latest[(problem, s.user)] = s.id
    reached = {(key, problem) for problem, (found, _) in judged.items() for key, (score, _, _) in found.items()
               if score >= threshold and score > 0}
    flagged = {(key, problem) for key, problem in reached
               if judged[problem][1].unusual(judged[problem][0][key][0], unusual)}
    pairs = []
    for a, b in {key for key, _ in flagged}:
        rows = []
        for problem in sorted(by_problem):
            if (problem, a) not in latest or (problem, b) not in latest:
                continue
            found, yardstick = judged[problem]
            score, sa, sb = found.get((a, b), (0.0, latest[(problem, a)], latest[(problem, b)]))
            rows.append(ProblemScore(problem, score, sa, sb, yardstick.z(score), yardstick.percentile(score),
                                     yardstick.median, ((a, b), problem) in flagged))
        rows.sort(key=lambda r: (-r.similarity, r.problem))
        pairs.append(CoursePair(a, b, tuple(rows), sum(r.flagged for r in rows)))
    return Found(sorted(pairs, key=lambda p: (-p.flagged, -p.mean, p.a, p.b)), len(reached) - len(flagged))


def by_problem(submissions: Iterable) -> dict[str, list]:
    """Submissions (with `.problem`) grouped by problem, in the order given."""
    grouped: dict[str, list] = {}
    for s in submissions:
        grouped.setdefault(s.problem, []).append(s)
    return grouped
