"""Reports as terminal text: the per-test table, failure messages, example values, the verdict line.

`render` turns a `judge.base.report.Report` into styled lines (judge.render.segments);
the CLI, the warm server, the notebook's text repr and the web page's values
all draw from here, so a report reads the same wherever it is shown.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace

from judge.base.escape import escape_controls, escape_name
from judge.render.segments import Line, plain, to_text
from judge.base.report import HINT, Report, Shown, TestResult
from judge.render.terminal import terminal_width
from judge.base.outcomes import Verdict

_GROUP_TITLES = {"example": "public examples", "hidden": "hidden tests", "check": "property checks"}


def render_text(report: Report, *, verbose: bool = False, values: bool = False, colour: bool = False,
                width: int | None = None, note: str | None = None, next_step: str | None = None) -> str:
    return to_text(render(report, verbose=verbose, values=values, width=width, note=note, next_step=next_step),
                   colour)


def terminal_output(report: Report, *, as_json: bool, verbose: bool, examples_only: bool, colour: bool,
                    width: int | None = None, next_step: str | None = None) -> tuple[str, str]:
    """What `judge run` prints for `report`: (stdout, stderr), wherever it was judged (here or warm);
    `width` is the terminal's (default: this process's); `next_step` what to try after an acceptance."""
    stderr = "".join(f"warning: {escape_controls(warning)}\n" for warning in report.warnings)
    if as_json:
        return report.dumps() + "\n", stderr
    text = render_text(report, verbose=verbose, values=examples_only, colour=colour, width=width,
                       next_step=next_step) + "\n"
    if report.refining:
        text += to_text([[(LOOKING, "dim")]], colour) + "\n"
    return text, stderr


LOOKING = "… looking further for the mistake that explains it (Ctrl+C stops waiting)"
REFINED_TITLE = "what explains it, found after the verdict:"
NOTHING_MORE = "  no mistake was named in the time given (the page, `judge serve`, waits longer)"
REFINED_TESTS = 3   # tests whose new diagnosis is printed, at most


def refinement_output(first: Report, refined: Report | None, *, colour: bool = False,
                      width: int | None = None) -> str:
    """What the terminal prints when a report's refinement comes (judge.judging.budget): each failing test that
    names more than it did (a few), the smallest input found for the first failure; when nothing came (nothing
    more found, or not in the time the terminal waits), one line saying so if the first report named nothing."""
    width = width or terminal_width()
    lines: list[Line] = []
    if refined is None:
        if not any(t.mistakes for t in first.tests):
            lines.append([(NOTHING_MORE, "dim")])
        return to_text(lines, colour) + "\n" if lines else ""
    changed = [(a, b) for a, b in zip(first.tests, refined.tests) if (a.mistakes, a.hint) != (b.mistakes, b.hint)]
    shown: set[str] = set()
    for _, after in changed[:REFINED_TESTS]:
        lines.append([("  ", None), ("✗", "red"), (f" {after.name}", None)])
        lines.extend(line for line in _message(replace(after, message=""), shown, width) if plain(line).strip())
    if len(changed) > REFINED_TESTS:
        lines.append([(f"  and {len(changed) - REFINED_TESTS} more test(s) alike (-v or --json shows them all)", "dim")])
    smallest = next((t for t in refined.tests if t.smallest is not None or t.smallest_text), None)
    if smallest is not None:
        lines.extend(smallest_lines(smallest))
    if not lines:
        return ""
    return to_text([[(REFINED_TITLE, "bold")]] + lines, colour) + "\n"


SCREEN = 32   # lines a report takes without -v, at most where it can: what a terminal shows at once


@dataclass(frozen=True)
class _Fit:
    """How much of a wrong submission's report is shown without -v."""

    detailed: int     # failures shown in full (message, mistake, hint, values)
    listed: int       # failures with a row of their own; the rest named on one line per group
    reasons: int      # reasons the undetailed failures are grouped by (the rest counted)
    pass_rows: int    # passing tests between failures with rows of their own, at most


ROOMY = _Fit(detailed=3, listed=8, reasons=8, pass_rows=2)
SCREENFUL = _Fit(detailed=1, listed=1, reasons=2, pass_rows=0)   # when the roomy report passes SCREEN lines


def render(report: Report, *, verbose: bool = False, values: bool = False, width: int | None = None,
           note: str | None = None, next_step: str | None = None) -> list[Line]:
    """The report as lines: without -v, as much as fits a screenful (SCREEN lines): the first failures in
    full when few, else the first one in full and the others counted by group and by reason."""
    lines = _render(report, verbose=verbose, values=values, width=width, note=note, next_step=next_step, fit=ROOMY)
    if verbose or values or len(lines) <= SCREEN:
        return lines
    return _render(report, verbose=verbose, values=values, width=width, note=note, next_step=next_step,
                   fit=SCREENFUL)


def _render(report: Report, *, verbose: bool, values: bool, width: int | None, note: str | None,
            next_step: str | None, fit: _Fit) -> list[Line]:
    """The per-test table, failure messages, example values and a final verdict line.

    `values` shows inputs, expected and actual outputs of every public example
    (`judge run --examples`); failing examples show them in any case. Without
    `verbose`, a wrong submission's report fits on a screen: the first few
    failures in full (values for the first that has any), a row for the next
    ones, then their names on one line; passing tests beside failures are
    counted rather than listed. Messages wrap at `width` columns (default: the
    terminal's) keeping their indentation.
    """
    if report.not_attempted:
        return _not_attempted(report)
    width = width or terminal_width()
    compact = not verbose and report.verdict is not Verdict.ACCEPTED and not values
    lines: list[Line] = _loading_output(report, verbose)
    name_width = max((len(t.name) for t in report.tests), default=4)
    # One spelling of a verdict in the rows and the summary line: its name (accepted, wrong_answer).
    verdict_width = max((len(t.verdict.value) for t in report.tests), default=7)
    lines.append([(f"    {'test'.ljust(name_width)}  {'verdict'.ljust(verdict_width)}  {'time':>10}", "dim")])
    mistakes: set[str] = set()
    failures = 0
    values_drawn = False
    undetailed: list[TestResult] = []   # failures shown without their message (without -v)
    # a file that failed to load is said once, on its first test; the rest are one line at the end;
    # tests never run because earlier ones used up the time budget are one line too, not rows of "0 ms"
    not_run = [t for t in report.tests if t.not_run]
    skipped = [t for t in report.tests if _skipped(t)]
    for group, tests in _groups([t for t in report.tests if not t.not_run and not _skipped(t)]):
        lines.append([(f"{_GROUP_TITLES.get(group, group)}", "bold")])
        passes: list[TestResult] = []
        unlisted: list[TestResult] = []
        for test in tests:
            ok = test.verdict is Verdict.ACCEPTED
            if ok and compact:
                passes.append(test)
                continue
            if not ok:
                failures += 1
                if compact and failures > fit.listed:
                    unlisted.append(test)
                    undetailed.append(test)
                    continue
            lines.extend(_passes(passes, name_width, fit.pass_rows if compact else 2))
            passes = []
            lines.append(_row(test, name_width, verdict_width))
            if ok:
                if test.shown is not None and values:
                    lines.extend(values_lines(test.shown)[0])
                if verbose:
                    lines.extend(_printed(test, verbose))
                continue
            if compact and failures > fit.detailed:
                undetailed.append(test)
                continue
            lines.extend(_message(test, mistakes, width))
            smallest = smallest_lines(test)
            lines.extend(smallest)
            traceback = test.verdict is Verdict.RUNTIME_ERROR and bool(test.details)
            if traceback:  # where it failed, right under its verdict and message
                lines.extend(_detail_lines(test.details, "red"))
            lines.extend(_printed(test, verbose))
            # one block of values per screen without -v: the smallest input, when found, is that block
            turn = values or verbose or not (values_drawn or smallest)
            if smallest and not turn and test.shown is not None and not values_drawn:
                lines.append([("      (-v also shows this example's own input and output)", "dim")])
            values_drawn = values_drawn or bool(smallest)
            drawn = False
            if test.shown is not None and turn:
                value_lines, drawn = values_lines(test.shown)
                lines.extend(value_lines)
                values_drawn = True
            if test.details and not traceback and not drawn and turn and (verbose or test.group == "example"):
                lines.extend(_detail_lines(test.details, "dim"))
                values_drawn = True
        lines.extend(_passes(passes, name_width, fit.pass_rows if compact else 2))
        if unlisted:
            more = "" if failures - len(unlisted) == 0 else " more"
            lines.append([("  ", None), ("✗", "red"),
                          (_names_line(f" {len(unlisted)}{more} failed: ", unlisted, width - 4, verbose), None)])
    if not_run:
        lines.append([(f"  ✗ {len(not_run)} more tests not run: the file failed to load (see above)", "red")])
    if skipped:
        reason = skipped[0].message.removeprefix("not run: ")
        lines.extend([(text, "red" if i == 0 else None)] for i, text in enumerate(
            _wrap(f"– {len(skipped)} test(s) not run: {reason} ({', '.join(t.name for t in skipped)})", width, "  ")))
    if undetailed:
        lines.append([(f"{len(undetailed)} more failure(s) without details, by reason (-v shows every message):",
                       "dim")])
        reasons = _by_reason(undetailed)
        shown = reasons if verbose else reasons[:fit.reasons]
        for count, reason in shown:
            lines.extend([(text, "dim")] for text in _wrap(f"{count} × {_first_sentence(reason, verbose)}", width,
                                                            "  "))
        if len(shown) < len(reasons):
            rest = sum(count for count, _ in reasons[len(shown):])
            lines.append([(f"  {rest} × for {len(reasons) - len(shown)} other reason(s)", "dim")])
    if verbose and report.output:
        lines.append([("captured output of the submission:", "bold")])
        lines.extend([(f"  | {line}", None)] for line in report.output.splitlines()[:200])
    lines.extend(_tampering(report, width))
    lines.append(_final(report, note if note is not None else ("(public examples only)" if values else "")))
    if next_step and report.accepted and not values:
        lines.extend([(text, "cyan")] for text in _wrap(f"next: {next_step}", width, ""))
    return lines


def _tampering(report: Report, width: int) -> list[Line]:
    """The report's tampering, one line (wrapped to the terminal) right above the verdict."""
    if not report.tampering:
        return []
    return [[(text, "yellow")] for text in _wrap(escape_controls(report.tampering_line, keep=""), width, "")]


PRINTED_LINES = 5  # lines of a test's printed output shown without -v


def _printed(test: TestResult, verbose: bool) -> list[Line]:
    """What the submission printed during this test, under its row (a few lines without -v)."""
    printed = test.output.splitlines()
    if not printed:
        return []
    keep = printed if verbose else printed[:PRINTED_LINES]
    lines: list[Line] = [[("      printed:", "dim")]] + [[(f"      | {line}", "dim")] for line in keep]
    if len(keep) < len(printed):
        lines.append([(f"      | ... {len(printed) - len(keep)} more line(s); -v shows them", "dim")])
    return lines


def _groups(tests: list[TestResult]) -> list[tuple[str, list[TestResult]]]:
    groups: list[tuple[str, list[TestResult]]] = []
    for test in tests:
        if not groups or groups[-1][0] != test.group:
            groups.append((test.group, []))
        groups[-1][1].append(test)
    return groups


def _row(test: TestResult, name_width: int, verdict_width: int = 7) -> Line:
    ok = test.verdict is Verdict.ACCEPTED
    colour = "green" if ok else "red"
    return [("  ", None), ("✓" if ok else "✗", colour), (f" {test.name.ljust(name_width)}  ", None),
            (test.verdict.value.ljust(verdict_width), colour), (f"  {test.time_ms:7.1f} ms", "dim")]


def _skipped(test: TestResult) -> bool:
    """Never run: earlier tests used up the submission's time budget (its message says so)."""
    return test.verdict is Verdict.TIME_LIMIT_EXCEEDED and test.message.startswith("not run:")


def _detail_lines(details: tuple[str, ...], style: str) -> list[Line]:
    """A failure's details (a mismatch table, traceback frames), each line indented under its test."""
    return [[(f"      {line}", style)] for detail in details for line in detail.splitlines()]


def _by_reason(failures: list[TestResult]) -> list[tuple[int, str]]:
    """Failures grouped by what failed, most frequent first: (count, reason).

    The reason is the named mistake's message when there is one (a mistake named above is still said
    in words, never by its name), else the message's first line. Messages that differ only in their
    numbers (`3 of 16 values differ`) are one reason, shown as the first of them says it: a reason
    is always a sentence a test really said, never a template with its numbers left out.
    """
    import re

    groups: dict[str, list[str]] = {}
    for test in failures:
        if test.mistake is not None:
            text = "; ".join(m.message for m in test.mistakes)
        else:
            text = (test.message.splitlines() or [test.verdict.value])[0] or test.verdict.value
        groups.setdefault(re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", text), []).append(text)
    reasons = []
    for texts in groups.values():
        shown = texts[0] if len(set(texts)) == 1 else f"{texts[0]} (the others alike, with other numbers)"
        reasons.append((len(texts), shown))
    return sorted(reasons, key=lambda r: -r[0])


def _first_sentence(reason: str, verbose: bool, limit: int = 150) -> str:
    """A reason as one line of a screenful: a mistake said above already, cut at its first clause."""
    if verbose or len(reason) <= limit:
        return reason
    cut = reason[:limit].rsplit(" ", 1)[0]
    return cut + " …"


def _loading_output(report: Report, verbose: bool) -> list[Line]:
    """What the file printed while it was loaded (not during a test: a warning raised in a test's call
    is under that test), first lines; -v shows all the output."""
    printed = (report.loading_output or "").splitlines()
    if not printed or verbose:
        return []
    keep = printed[:PRINTED_LINES]
    lines: list[Line] = [[("printed while loading the file:", "dim")]] + [[(f"  | {line}", "dim")] for line in keep]
    if len(keep) < len(printed):
        lines.append([(f"  | ... {len(printed) - len(keep)} more line(s); -v shows them", "dim")])
    return lines


def _passes(passes: list[TestResult], name_width: int, rows: int = 2) -> list[Line]:
    """Passing tests between failures: their own rows when `rows` or fewer, else one counted line."""
    if not passes:
        return []
    if len(passes) <= rows:
        return [_row(t, name_width) for t in passes]
    if len(passes) == 1:
        return [[("  ", None), ("✓", "green"), (f" 1 passed: {passes[0].name}", "dim")]]
    return [[("  ", None), ("✓", "green"), (f" {len(passes)} passed: {passes[0].name} … {passes[-1].name}", "dim")]]


def _names_line(lead: str, tests: list[TestResult], width: int, verbose: bool) -> str:
    """`lead` and the tests' names on one line (every name with -v): as many as fit, then how many more."""
    names = [t.name for t in tests]
    if verbose:
        return lead + ", ".join(names)
    shown: list[str] = []
    for i, name in enumerate(names):
        left = len(names) - i - 1
        tail = f", … ({left} more)" if left else ""
        if len(lead) + len(", ".join(shown + [name])) + len(tail) > width and shown:
            return lead + ", ".join(shown) + f", … ({len(names) - len(shown)} more)"
        shown.append(name)
    return lead + ", ".join(shown)


def _message(test: TestResult, mistakes: set[str], width: int = 100) -> list[Line]:
    """A failure message, then its mistake (yellow) and hint (cyan); a mistake named once already
    in this rendering is referred to, not repeated."""
    parts = test.message.splitlines() or ([""] if test.mistake is not None else [])
    lines: list[Line] = [[(text, None)] for part in parts for text in _wrap(part, width, "      ")]
    for mistake in test.mistakes:
        line = mistake.line
        if not mistake.repeated and line in mistakes:
            lines.append([("      this matches the known mistake named above", "yellow")])
        else:
            mistakes.add(line)
            lines.extend([(text, "yellow")] for text in _wrap(line, width, "      "))
    if test.hint:
        lines.extend([(text, "cyan")] for text in _wrap(f"{HINT}{test.hint}", width, "      "))
    return lines


def smallest_title(test: TestResult) -> str:
    """What the smallest input is, said where it is shown: a public example's own input shrunk, or a fresh
    input drawn like a hidden test's (whose own input stays hidden)."""
    if test.group == "example":
        return "the smallest input found from this example on which yours differs:"
    return "a fresh input drawn like this test's (its own stays hidden), the smallest found on which yours differs:"


def smallest_lines(test: TestResult) -> list[Line]:
    """The smallest input found that shows the wrong value (judge.judging.shrink), inputs and both outputs."""
    if test.smallest is not None:
        drawn = values_lines(test.smallest)[0]
    elif test.smallest_text:  # a report read back from JSON: the text the terminal drew
        drawn = [[(f"      {line}", None)] for line in test.smallest_text.splitlines()]
    else:
        return []
    return [[(f"      {smallest_title(test)}", "bold")]] + drawn


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """Wrap one line of a message at `width`, continuation lines indented like the first."""
    lead = text[:len(text) - len(text.lstrip())]
    return textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=indent + lead,
                         break_long_words=False, break_on_hyphens=False) or [indent]


def values_lines(shown: Shown) -> tuple[list[Line], bool]:
    """A public example's inputs and outputs; also whether a side-by-side diff was drawn."""
    from judge.render.display import show_value  # numpy only when values are shown
    from judge.render.sidebyside import inputs_lines, outputs_lines

    indent = "      "
    lines = inputs_lines(shown.inputs, indent)
    if shown.expected_error is not None:
        yours = f"raised {shown.actual_error}" if shown.actual_error else "returned a value"
        lines.append([(f"{indent}expected: raises {shown.expected_error}; yours: {yours}", None)])
        return lines, False
    if shown.actual is None and shown.actual_error is not None:
        lines.append([(f"{indent}expected output:", "bold")])
        lines.extend([(line, None)] for line in show_value(shown.expected, indent + "  ").split("\n"))
        return lines, False
    lines.append([(f"{indent}output (yours vs expected):", "bold")])
    output_lines, drawn = outputs_lines(shown.expected, shown.actual, shown.tolerance, indent + "  ")
    return lines + output_lines, drawn


def _not_attempted(report: Report) -> list[Line]:
    return [
        [("not attempted yet: ", "yellow bold"),
         (f"all {report.total} tests stop at `raise NotImplementedError`.", None)],
        [("Replace it with your solution, then try the public examples first:", None)],
        [(f"    judge run {report.problem} {escape_name(report.submission)} --examples", "cyan")],
        *_tampering(report, terminal_width()),
        _final(report, "(not attempted yet)"),
    ]


def _final(report: Report, note: str) -> Line:
    verdict = report.verdict
    ok = verdict is Verdict.ACCEPTED
    text = f"{verdict.value}: {report.passed}/{report.total} tests passed in {report.time_ms / 1000:.2f} s"
    return [("✓ " if ok else "✗ ", "green" if ok else "red"), (text, ("green" if ok else "red") + " bold"),
            (f" {note}" if note else "", "dim")]


def smallest_text(shown: Shown) -> str:
    """The smallest input's lines as the terminal draws them (without colour), for the JSON report."""
    lines, _ = values_lines(shown)
    return to_text(lines)
