"""`judge validate`'s findings for one problem as terminal lines: errors and warnings, then a status line."""
from __future__ import annotations

from judge.render.segments import Line
from judge.authoring.diagnostics import ProblemValidation, Severity, collapsed


def validation_lines(checked: ProblemValidation, verbose: bool = False) -> list[Line]:
    """Errors and warnings always (identical messages collapsed), `ok` lines when verbose."""
    lines: list[Line] = []
    for d in collapsed(checked.diagnostics):
        if d.severity is Severity.ERROR:
            lines.append([(f"  ERROR {d.aspect}: {d.message}", "red")])
        elif d.severity is Severity.WARNING:
            lines.append([(f"  WARN  {d.aspect}: {d.message}", "yellow")])
        elif verbose:
            lines.append([(f"  ok    {d.aspect}: {d.message}", None)])
    if verbose:
        for n in checked.naming:
            said = (f"named {n.mistake} ({'a trap' if n.known else 'a generic diagnosis'})" if n.mistake
                    else f"caught by the check {n.check}" if n.check else "not named")
            lines.append([(f"  ok    {checked.problem}.naming.{n.submission}: {said}", None)])
    for n in checked.misnamed:
        lines.append([(f"  WARN  {checked.problem}.naming.{n.submission}: named {n.mistake}, "
                       f"but the file is named after the trap {n.expected_trap}", "yellow")])
    status = "valid" if checked.ok else "INVALID"
    counts = f"{len(checked.errors)} error(s), {len(checked.warnings)} warning(s)"
    named = f"; {checked.named} of {len(checked.naming)} known wrong submissions named" if checked.naming else ""
    gate = checked.gate
    if gate is not None:
        tally = (f"{gate.count('killed')} killed, {gate.count('equivalent')} equivalent, "
                 f"{gate.count('out_of_contract')} out of contract")
        if gate.sampled:   # a sample proves nothing of the mutants it left out: it never says "0 survived"
            named += (f"; {gate.made} of {gate.population} mutants tried (a sample; `--mutants` is the proof): "
                      f"{tally}, {gate.count('survived')} of the sample survived")
        else:
            named += f"; {gate.made} mutants: {tally}, {gate.count('survived')} survived"
        named += "" if gate.complete else ", incomplete"
    lines.append([(f"{checked.problem}: {status} ({counts}, {checked.seconds:.1f} s){named}",
                   "green" if checked.ok else "red")])
    return lines
