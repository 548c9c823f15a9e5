"""Similar submissions within a course: winnowing fingerprints over normalised Python tokens.

Sources are tokenized with `tokenize` (never run or imported) and normalised
so that what copying usually changes does not count: comments, blank lines
and line breaks inside brackets go; every name that is not a keyword, a
builtin or an attribute becomes `V`, so renamed variables match; strings
become `S`. Of every k consecutive tokens a hash is taken and winnowing
(Schleimer, Wilkerson, Aiken 2003) keeps the smallest in each window of w
hashes: the fingerprint. Fingerprints of the problem's starter code are
dropped (every submission shares it). Two submissions' similarity is the
share of the smaller fingerprint set found in the other, so code copied into
a longer file still shows. copydetect does the same but brings matplotlib
and tqdm for its HTML report; the service needs only the numbers.
"""
from __future__ import annotations

import builtins
import hashlib
import io
import keyword
import tokenize
from dataclasses import dataclass

K = 12                 # tokens per hashed k-gram: shorter runs are common idiom, not copying
WINDOW = 6             # any shared run of K + WINDOW - 1 tokens is certain to share a fingerprint
MAX_TOKENS = 50_000    # a source is fingerprinted up to this many tokens (sources are untrusted)
KEPT = frozenset(keyword.kwlist) | frozenset(dir(builtins))
DROPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING, tokenize.ENDMARKER}


@dataclass(frozen=True)
class Pair:
    a: str                 # learner
    b: str
    similarity: float      # 0..1
    a_submission: str
    b_submission: str

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "similarity": round(self.similarity, 3), "a_submission": self.a_submission,
                "b_submission": self.b_submission}


def tokens(source: str) -> list[str]:
    """The normalised tokens of `source`; as far as it tokenizes, when it does not all the way."""
    out: list[str] = []
    previous = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in DROPPED:
                continue
            if tok.type == tokenize.NAME:
                out.append(tok.string if tok.string in KEPT or previous == "." else "V")
            elif tok.type == tokenize.STRING or tok.type in _FSTRING:
                out.append("S")
            elif tok.type == tokenize.INDENT:
                out.append("<in>")
            elif tok.type == tokenize.DEDENT:
                out.append("<de>")
            else:
                out.append(tok.string)
            previous = tok.string
            if len(out) >= MAX_TOKENS:
                break
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


_FSTRING = {getattr(tokenize, name) for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
            if hasattr(tokenize, name)}


def fingerprint(source: str, k: int = K, window: int = WINDOW) -> frozenset[int]:
    toks = tokens(source)
    hashes = [int.from_bytes(hashlib.blake2b("\x1f".join(toks[i:i + k]).encode(), digest_size=8).digest(), "big")
              for i in range(len(toks) - k + 1)]
    if len(hashes) <= window:
        return frozenset(hashes)
    return frozenset(min(hashes[i:i + window]) for i in range(len(hashes) - window + 1))


def similarity(a: frozenset[int], b: frozenset[int]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def similar_pairs(submissions, threshold: float, boilerplate: str = "") -> list[Pair]:
    """Pairs of different learners with submissions at least `threshold` alike, most alike first.

    `submissions` have `.id`, `.user` and `.source`; each pair of learners appears once, with
    their most alike submissions.
    """
    common = fingerprint(boilerplate) if boilerplate else frozenset()
    prints = [(s, fingerprint(s.source) - common) for s in submissions]
    holders: dict[int, list[int]] = {}
    for index, (_, fp) in enumerate(prints):
        for h in fp:
            holders.setdefault(h, []).append(index)
    candidates: set[tuple[int, int]] = set()   # only pairs sharing a fingerprint are compared
    for indices in holders.values():
        for x in range(len(indices)):
            for y in range(x + 1, len(indices)):
                candidates.add((indices[x], indices[y]))
    best: dict[tuple[str, str], Pair] = {}
    for i, j in candidates:
        (s, fs), (t, ft) = prints[i], prints[j]
        if s.user == t.user:
            continue
        score = similarity(fs, ft)
        if score < threshold:
            continue
        if (s.user, s.id) > (t.user, t.id):
            s, t = t, s
        key = (s.user, t.user)
        if key not in best or score > best[key].similarity:
            best[key] = Pair(s.user, t.user, score, s.id, t.id)
    return sorted(best.values(), key=lambda p: (-p.similarity, p.a, p.b))
