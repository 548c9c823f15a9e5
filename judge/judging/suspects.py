"""What may explain a report's wrong values, as judge.judging.explain's models, and how each one's outputs are made.

Three kinds: the problem's traps (run in the judge's process, their outputs
kept by judge.judging.grading and judge.model.cache), slip models of the trusted solutions
(judge.judging.slips, run in the sandbox, kept per problem) and repairs of the
learner's own file (judge.judging.repairs, run in the sandbox like the file itself,
kept for this report only). judge.judging.explain asks for their outputs on tests;
this module knows where each comes from and what each is called.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

from judge.judging import explain
from judge.judging.evidence import Model, Named, Outputs, Test
from judge.model.cases import Case
from judge.runs.contract import Backend, Limits, Program
from judge.runs.calls import ErrorInfo, Observation
from judge.model.problem import Trap
from judge.judging.repair_search import Repairs
from judge.judging.repairs import Repair, joined, repairs_of, unparsed
from judge.judging.slips import RAISED, Slip, Slips, run_variants
from judge.judging.wording import (name_repair, name_repair_beside, name_slip, name_slip_of_two,
                                   name_slips_together, name_trap)


class Suspects:
    """The models of one report's explanation, and their outputs (each made once for the report)."""

    def __init__(self, traps: Sequence[Trap], trap_output: Callable[[Test, Trap], Any], slips: Slips | None,
                 program: Program, backend: Backend, limits: Limits, size: Callable[[Case], int],
                 rows: tuple[str, ...] = ()):
        self.traps, self.trap_output, self.slip_set = traps, trap_output, slips
        self.program, self.backend, self.limits, self.size = program, backend, limits, size
        self.rows = rows   # the entry point's arguments a repair may normalise row by row (2-D or more, float)
        self._traps: dict[str, Trap] = {}
        self._slips: dict[str, Slip] = {}
        self._repairs: dict[str, Repair] = {}
        self._repaired: dict[tuple[str, int], Any] = {}   # (case name, repair index) -> outcome

    # ------------------------------------------------------------ models

    def trap_models(self, aimed: set[str]) -> list[Model]:
        found = []
        for trap in self.traps:
            key = f"trap:{trap.function}"
            self._traps[key] = trap
            found.append(Model(key, name_trap(trap), trap.name in aimed))
        return found

    def slips(self) -> explain.Slips | None:
        return explain.Slips(self._slip_models, self._joined_slips) if self.slip_set is not None else None

    def repairs(self) -> Repairs | None:
        if self.slip_set is None:
            return None
        return Repairs(self._repair_models, self._joined_repairs, self._name_repair_beside,
                       lambda model: self._repairs[model.key].line)

    def _slip_models(self) -> list[Model]:
        for slip in self.slip_set.models:
            self._slips[f"slip:{slip.index}"] = slip
        return [Model(key, name_slip(slip), group=slip.origin, loose=True) for key, slip in self._slips.items()]

    def _joined_slips(self, pairs: Sequence[tuple[Model, Model]]) -> list[Model]:
        made = []
        for a, b in pairs:
            both = self.slip_set.joined(self._slips[a.key], self._slips[b.key])
            if both is not None:
                self._slips[f"slip:{both.index}"] = both
                parts = tuple(replace(m, named=name_slip_of_two(m.named.name, self._slips[m.key].words))
                              for m in (a, b))
                made.append(Model(f"slip:{both.index}", name_slips_together(both), group=both.origin, parts=parts,
                                  loose=True))
        return made

    def _repair_models(self) -> list[Model]:
        context = self.slip_set.context
        for repair in repairs_of(self.program.source, context, self.slip_set.arguments, self.rows):
            self._repairs[f"repair:{repair.index}"] = repair
        return [Model(key, name_repair(repair), exact=True) for key, repair in self._repairs.items()]

    def _name_repair_beside(self, model: Model) -> Named:
        return name_repair_beside(model.named.name, self._repairs[model.key])

    def _joined_repairs(self, first: Model, others: Sequence[Model]) -> list[Model]:
        base = unparsed(self.program.source)
        one = self._repairs[first.key]
        made = []
        for other in others:
            two = joined(base, one, self._repairs[other.key], len(self._repairs))
            if two is None:
                continue
            key = f"repair:{two.index}"
            self._repairs[key] = two
            parts = (replace(first, named=name_repair(one, two)),
                     replace(other, named=name_repair(self._repairs[other.key], one)))
            made.append(Model(key, Named("two_repairs", "", False), parts=parts, exact=True))
        return made

    # ------------------------------------------------------------ outputs

    def predict(self, models: Sequence[Model], tests: Sequence[Test]
                ) -> Outputs:
        found: Outputs = {}
        for model in (m for m in models if m.key in self._traps):
            for test in tests:
                made = self.trap_output(test, self._traps[model.key])
                found[(model.key, test.index)] = None if made is None else Observation(value=made)
        slips = [m for m in models if m.key in self._slips]
        if slips:
            outputs = self.slip_set.outputs(self.backend, self.program.framework, self.limits,
                                            [t.case for t in tests], [self._slips[m.key].index for m in slips], self.size)
            for model in slips:
                for test in tests:
                    found[(model.key, test.index)] = _outcome(outputs.get((test.case.name, self._slips[model.key].index)))
        repairs = [m for m in models if m.key in self._repairs]
        if repairs:
            wanted = [(t.case, self._repairs[m.key].index) for t in tests for m in repairs
                      if (t.case.name, self._repairs[m.key].index) not in self._repaired]
            if wanted:
                sources = {i: self._repairs[f"repair:{i}"].source for _, i in wanted}
                # The learner's file changed: it may read no more than the file itself (`hidden`).
                self._repaired.update(run_variants(self.backend, self.program.framework, self.limits, wanted, sources,
                                                   self.program.entry_point, self.size, self.program.hidden))
            for model in repairs:
                for test in tests:
                    found[(model.key, test.index)] = _outcome(self._repaired.get((test.case.name,
                                                                                  self._repairs[model.key].index)))
        return found


def _outcome(made: Any) -> Observation | None:
    """A variant's outcome as explain reads it: its value, an error where it raised (evidence: it is not the
    learner's computation where the learner's file gave a value), None where it was not run or ran out of time
    (no evidence)."""
    if isinstance(made, Observation):
        return made
    return _RAISED if made == RAISED else None


_RAISED = Observation(error=ErrorInfo("Exception", ("Exception",), "the variant raised"))
