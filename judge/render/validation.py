"""`judge validate`'s findings for one problem as terminal lines: errors and warnings, then a status line."""
from __future__ import annotations

from judge.render.segments import Line
from judge.validate import ProblemValidation, Severity, collapsed


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
    status = "valid" if checked.ok else "INVALID"
    counts = f"{len(checked.errors)} error(s), {len(checked.warnings)} warning(s)"
    lines.append([(f"{checked.problem}: {status} ({counts}, {checked.seconds:.1f} s)",
                   "green" if checked.ok else "red")])
    return lines
