"""Slip models: the trusted solutions, each with one realistic slip, as models of what a learner wrote.

A slip is a mistake nobody listed: a trusted solution changed at one place by the mutation operators
(judge.judging.mutants) where the change can be said in a learner's words (judge.judging.slipwords).
judge.judging.explain decides when a model's outputs prove the slip. Models are machine-changed code, so
they run only in the sandbox, a chunk per call on a test's own inputs: a model that raises has no output,
and a chunk that dies or runs out of time leaves its models unknown. Outputs are kept per case in memory.
"""
from __future__ import annotations

import ast
import difflib
import threading
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from judge.model.cases import Case
from judge.runs.contract import Backend, Limits, Program
from judge.runs.calls import Call, Observation
from judge.judging.mutants import Context, mutants
from judge.judging.slipwords import slug, words

MAX_MODELS = 800        # models of one problem at most (the first ones, in the order of the files)
CHUNK = 24              # models one call runs, at most
CHUNK_BYTES = 4 << 20   # ... and at most this many bytes of outputs (an output's size is the expected one's)
RAISED = "raised"       # a model's outcome on a case when it raised (it gives no value there)
RUN_BUDGET_S = 30.0     # one run of variants ends after this long (a slow file's variants are slow too)


@dataclass(frozen=True)
class Slip:
    """One trusted solution with one slip: what the slip is called and the file that makes it."""

    index: int          # its place among the problem's models
    origin: str         # the trusted file it was made from (a label for measurements; never shown)
    words: str          # what the slip is, in a learner's words (judge.judging.slipwords)
    source: str         # the whole changed file (never shown)
    parts: tuple[int, ...] = ()   # a model with two slips: the indices of the one-slip models it joins

    @property
    def name(self) -> str:
        return slug(self.words)


@dataclass
class Slips:
    """The slip models of one problem, made on first need, and their outputs on cases, kept.

    `sources` gives (label, source) of each trusted solution; `exclude` leaves out the models of
    some of them (a measurement leaves out the file its own mutants came from, so a slip is named
    only by another solution's model of it). Shared by threads: each case's outputs are made once.
    """

    sources: Callable[[], list[tuple[str, str]]]
    context: Context
    arguments: tuple[str, ...]                 # the entry point's argument names (slip words may use them)
    exclude: frozenset[str] = frozenset()
    _state: dict = field(default_factory=dict, repr=False)   # shared with `without` copies: models, outputs, lock

    def __post_init__(self) -> None:
        self._state.setdefault("lock", threading.RLock())
        self._state.setdefault("outputs", {})   # (case name, model index) -> Observation, RAISED or None (unknown)

    @property
    def models(self) -> list[Slip]:
        with self._state["lock"]:
            if "models" not in self._state:
                sources = self.sources()
                self._state["models"] = _models(sources, self.context, self.arguments)
                self._state["bases"] = {label: _unparse_unchanged(source) for label, source in sources}
        return [m for m in self._state["models"] if m.origin not in self.exclude and not m.parts]

    def joined(self, first: Slip, second: Slip) -> Slip | None:
        """The model with both slips: `first`'s file with `second`'s change made too (both must come from
        one file, on different lines); None when they cannot stand together. Made once, then kept."""
        if first.origin != second.origin or first.index == second.index:
            return None
        with self._state["lock"]:
            joined = self._state.setdefault("joined", {})
            key = (first.index, second.index)
            if key not in joined:
                source = merged(self._state["bases"][first.origin], first.source, second.source)
                joined[key] = None
                if source is not None:
                    models = self._state["models"]
                    joined[key] = Slip(len(models), first.origin, f"{first.words}; {second.words}", source,
                                       parts=key)
                    models.append(joined[key])
            return joined[key]

    def without(self, origins: Sequence[str]) -> "Slips":
        """The same models and kept outputs, less those made from `origins`."""
        return replace(self, exclude=self.exclude | frozenset(origins))

    def outputs(self, backend: Backend, framework: str, limits: Limits, cases: Sequence[Case],
                indices: Sequence[int], size: Callable[[Case], int]) -> dict[tuple[str, int], Any]:
        """Each model's (of `indices`) outcome on each case: an Observation of its value, RAISED, or None
        when its run died or ran out of time. Outcomes not kept yet are made in one run of `backend`;
        `size(case)` is the bytes an output on that case takes (to size the chunks)."""
        kept = self._state["outputs"]
        by_index = {m.index: m for m in self._state.get("models", [])}
        wanted = [(case, i) for case in cases if case.calls.main is not None for i in indices
                  if (case.name, i) not in kept and i in by_index]
        if wanted:
            with self._state["lock"]:
                wanted = [(c, i) for c, i in wanted if (c.name, i) not in kept]
                if wanted:
                    sources = {i: by_index[i].source for _, i in wanted}
                    kept.update(run_variants(backend, framework, limits, wanted, sources, self.context.entry_point,
                                             size))
        return {(case.name, i): kept.get((case.name, i)) for case in cases for i in indices}


def _models(sources: list[tuple[str, str]], context: Context, arguments: tuple[str, ...]) -> list[Slip]:
    """Every mutant of the trusted files whose slip can be said, each behaviour's text once."""
    found: list[Slip] = []
    seen: set[str] = set()
    for label, source in sources:
        try:
            made = mutants(source, context)
        except SyntaxError:
            continue
        parents = _parents(source)
        for mutant in made:
            within = parents.get((mutant.line, mutant.before), "")
            said = words(mutant.operator, mutant.before, mutant.after, arguments, within)
            if said is None or mutant.source in seen:
                continue
            seen.add(mutant.source)
            found.append(Slip(len(found), label, said, mutant.source))
            if len(found) >= MAX_MODELS:
                return found
    return found


def _parents(source: str) -> dict[tuple[int, str], str]:
    """(line, code) of each node -> the kind of node it stands in (where one code stands in several
    kinds on a line, the first found), so a slip's words can tell a condition from a value."""
    found: dict[tuple[int, str], str] = {}
    for parent in ast.walk(ast.parse(source)):
        for child in ast.iter_child_nodes(parent):
            if hasattr(child, "lineno"):
                found.setdefault((child.lineno, ast.unparse(child)), type(parent).__name__)
    return found


def _unparse_unchanged(source: str) -> str | None:
    """The file as judge.judging.mutants writes its mutants (unparsed from its syntax tree), before any change."""
    try:
        return ast.unparse(ast.parse(source)) + "\n"
    except SyntaxError:
        return None


def merged(base: str | None, first: str, second: str) -> str | None:
    """`base` with the changes of both `first` and `second` (each `base` with one change), when the two
    change separate stretches of it (on one line or not) and the result is Python; else None."""
    if base is None:
        return None
    lines = base.splitlines(keepends=True)
    hunks = [_hunk(lines, text.splitlines(keepends=True)) for text in (first, second)]
    if any(h is None for h in hunks):
        return None
    (a1, a2, a_new), (b1, b2, b_new) = sorted(hunks, key=lambda h: (h[0], h[1]))
    if a2 <= b1 and not (a1 == a2 == b1 == b2):
        text = "".join(lines[:a1] + a_new + lines[a2:b1] + b_new + lines[b2:])
    elif (a1, a2) == (b1, b2) and a2 - a1 == 1 and len(a_new) == len(b_new) == 1:
        text = _merged_line(lines[a1], a_new[0], b_new[0])  # both on one line: merged within it
        text = None if text is None else "".join(lines[:a1] + [text] + lines[a2:])
    else:
        return None
    if text is None:
        return None
    try:
        ast.parse(text)
    except SyntaxError:
        return None
    return text


def _hunk(base: list[str], lines: list[str]) -> tuple[int, int, list[str]] | None:
    """The one stretch where `lines` differ from `base`: (start, end in base, its lines in `lines`)."""
    top = 0
    while top < min(len(base), len(lines)) and base[top] == lines[top]:
        top += 1
    if top == len(base) == len(lines):
        return None  # no change at all
    bottom = 0
    while bottom < min(len(base), len(lines)) - top and base[-1 - bottom] == lines[-1 - bottom]:
        bottom += 1
    return top, len(base) - bottom, lines[top:len(lines) - bottom]


def _merged_line(base: str, first: str, second: str) -> str | None:
    """One line with two changes made to separate stretches of it."""
    edits = []
    for changed in (first, second):
        ops = [op for op in difflib.SequenceMatcher(None, base, changed, autojunk=False).get_opcodes()
               if op[0] != "equal"]
        if not ops:
            return None
        edits.append((ops[0][1], ops[-1][2], changed[ops[0][3]:ops[-1][4]]))  # one stretch of it, rewritten
    (a1, a2, a_text), (b1, b2, b_text) = sorted(edits)
    if a2 > b1 or (a1 == a2 == b1 == b2):
        return None  # the stretches overlap (or both insert at one place): the changes do not stand apart
    return base[:a1] + a_text + base[a2:b1] + b_text + base[b2:]


# The program the sandbox runs: the models' sources, loaded on first use in the worker, and one entry
# point that calls some of them on the test's inputs (a copy each, so none sees another's writes).
_PROGRAM = '''
import copy as _copy

_MODELS = {models!r}
_ENTRY = {entry!r}
_loaded = {{}}


def _model(index):
    if index not in _loaded:
        space = {{"__name__": "slip_%d" % index}}
        exec(compile(_MODELS[index], "slip_%d.py" % index, "exec"), space)
        _loaded[index] = space[_ENTRY]
    return _loaded[index]


def slips(indices, *args):
    outcomes = []
    for index in indices:
        try:
            outcomes.append([True, _model(index)(*_copy.deepcopy(args))])
        except Exception:
            outcomes.append([False, None])
    return outcomes
'''


def run_variants(backend: Backend, framework: str, limits: Limits, wanted: list[tuple[Case, int]],
                 sources: dict[int, str], entry: str, size: Callable[[Case], int],
                 hidden: tuple[str, ...] = ()) -> dict[tuple[str, int], Any]:
    """Each variant's (a whole file's `sources[i]`) outcome on each case's main inputs, for each wanted
    (case, i): an Observation of its value, RAISED, or None where its chunk died or ran out of time.
    One run of `backend`, a chunk of variants per call: slip models here, repairs (judge.judging.repairs)."""
    by_case: dict[str, tuple[Case, list[int]]] = {}
    for case, index in wanted:
        by_case.setdefault(case.name, (case, []))[1].append(index)
    calls: list[Call] = []
    chunks: list[tuple[str, list[int]]] = []
    for name, (case, indices) in by_case.items():
        step = max(1, min(CHUNK, CHUNK_BYTES // max(1, size(case))))
        for start in range(0, len(indices), step):
            chunk = indices[start:start + step]
            chunks.append((name, chunk))
            calls.append(Call(args=(chunk, *case.calls.main.args)))
    used = sorted({i for _, chunk in chunks for i in chunk})
    program = Program(source=_PROGRAM.format(models={i: sources[i] for i in used}, entry=entry),
                      filename="slips.py", entry_point="slips", framework=framework, hidden=hidden)
    # A chunk has the time of a test call per variant in it; the whole run a budget of its own.
    run_limits = replace(limits, time_s=limits.time_s * CHUNK, total_time_s=RUN_BUDGET_S)
    result = backend.run(program, calls, run_limits)
    found: dict[tuple[str, int], Any] = {}
    for (name, chunk), outcome in zip(chunks, result.outcomes):
        observation = outcome.observation if result.load_error is None else None
        values = observation.value if observation is not None and observation.error is None else None
        if not (isinstance(values, list) and len(values) == len(chunk)):
            found.update(((name, i), None) for i in chunk)  # the chunk died, ran out of time or was refused
            continue
        for i, item in zip(chunk, values):
            ok = isinstance(item, list) and len(item) == 2 and item[0] is True
            found[(name, i)] = Observation(value=item[1]) if ok else RAISED
    return found
