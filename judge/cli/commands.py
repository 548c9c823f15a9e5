"""The `judge` command line: a thin layer over `judge.judging.session.Judge`.

Exit codes of `judge run`: 0 accepted, 1 judged and not accepted, 2 usage or
configuration error (one line on stderr naming the file and what is wrong).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from judge.base.errors import ConfigError, ConfigErrors, SandboxError



class _Group(click.Group):
    """Turns configuration errors into one line on stderr and exit code 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except ConfigErrors as exc:
            for line in exc.lines():
                click.echo(f"error: {line}", err=True)
            ctx.exit(2)
        except ConfigError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        except SandboxError as exc:  # the judge could not judge: say why in one line, never a traceback
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)


@click.group(cls=_Group)
@click.option("--problems-dir", envvar="JUDGE_PROBLEMS_DIR", type=click.Path(file_okay=False),
              help="A problem set laid out like the repository (problems/, hidden_tests/, submissions/).")
@click.version_option(package_name="tensor-judge")
@click.pass_context
def main(ctx: click.Context, problems_dir: str | None) -> None:
    """tensor-judge: practice problems for tensor code, judged offline in a sandbox."""
    if os.environ.get("NO_COLOR"):  # https://no-color.org; click's echo follows ctx.color
        ctx.color = False
    ctx.obj = _LazyJudge(problems_dir)
    ctx.call_on_close(ctx.obj.close)


class _LazyJudge:
    """Builds the library object on first use, so --help never touches the disk."""

    def __init__(self, problems_dir: str | None):
        self.problems_dir = problems_dir
        self._judge = None
        self._launched = None

    def launch_sandbox(self) -> None:
        """Start the fork server now, so its imports overlap ours (commands that judge code)."""
        from judge.sandbox.launch import launch

        self._launched = launch()

    def take_launched(self):
        """The fork server started by `launch_sandbox`, for a command that builds its own Judge."""
        launched, self._launched = self._launched, None
        return launched

    def __call__(self):
        if self._judge is None:
            from judge.judging.session import Judge

            self._judge = Judge(self.problems_dir, launched=self._launched)
            self._launched = None
            for note in self._judge.problem_set.notes():   # a pack's working copy wins: say so
                click.echo(f"note: {note}", err=True)
        return self._judge

    def close(self) -> None:
        if self._launched is not None:
            self._launched.abandon()
        if self._judge is not None:
            self._judge.close()


@main.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.option("--unit", "unit_id", default=None, help="Only the problems of this unit (e.g. 5.5), in its order.")
@click.option("--tag", "tags", multiple=True, help="Only problems with this tag (repeat: all of them).")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default=None)
@click.option("--status", type=click.Choice(["solved", "attempted", "new"]), default=None)
@click.pass_obj
def list_(judge, as_json: bool, unit_id: str | None, tags: tuple[str, ...], difficulty: str | None,
          status: str | None) -> None:
    """List every problem in course order: id, title, difficulty, tags, and your status (solved, attempted,
    new); a unit's extras are marked."""
    listing = judge().tutor.listing()
    for broken in listing.broken:  # one broken file must not hide the others
        click.echo(f"warning: {broken.id} is not listed: {broken.error}", err=True)
    entries = list(listing.entries)
    if unit_id is not None:
        unit = judge().tutor.unit(unit_id)
        order = {pid: i for i, pid in enumerate([*unit.problems, *unit.extras])}
        entries = sorted((e for e in entries if e.problem.id in order), key=lambda e: order[e.problem.id])
    if listing.warning:
        click.echo(f"warning: {listing.warning}", err=True)
    # A unit's tag (unit-5.5) means the unit's own list, as `judge unit` and `judge progress` count it.
    units = {f"unit-{u.id}": {*u.problems, *u.extras} for u in judge().tutor.units()} if any(
        t.startswith("unit-") for t in tags) else {}
    extras = judge().tutor.extras()
    items = [{**e.to_json(), "extra": e.problem.id in extras} for e in entries
             if all(e.problem.id in units[t] if t in units else t in e.problem.tags for t in tags)
             and (difficulty is None or e.problem.difficulty == difficulty)
             and (status is None or e.status == status)]
    if as_json:
        click.echo(json.dumps(items, indent=2))
        return
    if not items:
        click.echo("no problem matches")
        return
    from judge.render import listing_lines, terminal_width, to_text, use_colour

    colour = use_colour(sys.stdout)
    click.echo(to_text(listing_lines(items, min(100, terminal_width())), colour), color=colour)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.pass_obj
def units(judge, as_json: bool) -> None:
    """List the course units with your progress: problems solved, questions right, passed."""
    tutor = judge().tutor
    standings = []
    for unit in tutor.units():
        standing, warning = tutor.standing(unit)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        standings.append(standing)
    if as_json:
        click.echo(json.dumps([s.to_json() for s in standings], indent=2))
        return
    if not standings:
        click.echo("no units in this problem set (units/*.yaml)")
        return
    from judge.render import to_text, units_lines, use_colour

    colour = use_colour(sys.stdout)
    click.echo(to_text(units_lines(standings), colour), color=colour)


@main.command()
@click.argument("unit_id")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.pass_obj
def unit(judge, unit_id: str, as_json: bool) -> None:
    """Show a unit: its problems in order with your status, its questions, what is left."""
    u = judge().tutor.unit(unit_id)
    standing, warning = judge().tutor.standing(u)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(json.dumps(standing.to_json(), indent=2))
        return
    problems, _ = judge().problem_set.load()
    titles = {p.id: p.title for p in problems if p.id in (*u.problems, *u.extras)}
    from judge.render import terminal_width, to_text, unit_lines, use_colour

    colour = use_colour(sys.stdout)
    click.echo(to_text(unit_lines(standing, titles, min(100, terminal_width())), colour), color=colour)


@main.command()
@click.argument("unit_id")
@click.option("--answer", "answers", type=(str, str), multiple=True, metavar="QUESTION VALUE",
              help="Answer QUESTION with VALUE without asking (repeatable; for scripts).")
@click.option("--all", "ask_all", is_flag=True, help="Ask every question, also those already answered right.")
@click.pass_obj
def quiz(judge, unit_id: str, answers: tuple[tuple[str, str], ...], ask_all: bool) -> None:
    """Answer a unit's self-test questions; each answer is recorded and explained.

    Without --answer, asks in the terminal every question not yet answered right.
    Exits with 0 when every answer given was right, 1 otherwise.
    """
    from judge.learner.units import LETTERS

    tutor = judge().tutor
    u = tutor.unit(unit_id)
    if answers:
        pairs = [(u.question(qid), value) for qid, value in answers]  # unknown ids: exit 2 before recording
    else:
        standing, warning = tutor.standing(u)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        todo = [q for q in u.questions if ask_all or not standing.answers.get(q.id, ("", False))[1]]
        if not todo:
            click.echo(f"every question of unit {u.id} is answered right (--all asks them again)")
            return
        pairs = [(q, None) for q in todo]
    all_right = True
    warned = False
    for q, value in pairs:
        click.echo(click.style(f"{q.id}: {q.prompt}", bold=True))
        for i, option in enumerate(q.options):
            click.echo(f"  {LETTERS[i]}) {option}")
        # In the terminal, one retry before the answer is shown; an answer given by --answer is final.
        tries = 1 if value is not None else 2
        while True:
            text = value if value is not None else click.prompt("your answer", prompt_suffix="> ")
            taken = tutor.answer(u, q.id, text)
            if taken.verdict.unreadable:
                click.echo(f"  cannot read {text!r}: {taken.verdict.unreadable}")
                if value is not None:
                    raise ConfigError(f"--answer {q.id}: cannot read {text!r}: {taken.verdict.unreadable}")
                continue
            if taken.warning and not warned:
                click.echo(f"warning: {taken.warning}", err=True)
                warned = True
            tries -= 1
            if taken.right or tries == 0:
                break
            click.echo(click.style(f"  not quite ({taken.verdict.answer}); one more try", fg="yellow"))
        if taken.right:
            click.echo(click.style(f"  right: {taken.verdict.answer}", fg="green"))
        else:
            all_right = False
            click.echo(click.style(f"  wrong: {taken.verdict.answer}; the answer is {q.expected()}", fg="red"))
        click.echo(f"  {q.explanation.strip()}")
    standing = taken.standing if pairs else tutor.standing(u)[0]
    click.echo()
    if standing.passed:
        click.echo(click.style(f"passed: unit {u.id} is complete", fg="green", bold=True)
                   + (f"; next: unit {u.next}" if u.next else ""))
    else:
        click.echo(f"unit {u.id}: problems {standing.solved}/{standing.problems_needed()}, "
                   f"questions {standing.right}/{standing.questions_needed()} right")
    sys.exit(0 if all_right else 1)


@main.command()
@click.argument("problem_id")
@click.pass_obj
def show(judge, problem_id: str) -> None:
    """Show a problem: statement, signature, rules and public examples."""
    from judge.render import problem_lines, to_text, use_colour

    j = judge()
    problem = j.problem(problem_id)
    colour = use_colour(sys.stdout)
    lines = problem_lines(problem, j.examples(problem), colour=colour)
    click.echo(to_text(lines, colour), color=colour)


@main.command()
@click.argument("problem_id")
@click.argument("path", required=False, type=click.Path())
@click.option("--input", "input_path", type=click.Path(dir_okay=False), default=None,
              help="Write an input file for `judge run --input` (the first example's, to edit) to this path; "
                   "without PATH, only that file.")
@click.option("--force", is_flag=True, help="Overwrite PATH (and the --input file) if it exists.")
@click.pass_obj
def start(judge, problem_id: str, path: str | None, input_path: str | None, force: bool) -> None:
    """Write a starter file for PROBLEM_ID to PATH (default ./PROBLEM_ID.py)."""
    from pathlib import Path

    from judge.authoring.starter import write_input_template, write_starter

    problem = judge().problem(problem_id)
    target = None
    if path is not None or input_path is None:
        target = write_starter(problem, Path(path) if path else None, force=force)
        click.echo(f"wrote {target}")
    if input_path is not None:
        written = write_input_template(problem, Path(input_path), force=force)
        click.echo(f"wrote {written} (the example {problem.examples[0].name}'s input: edit it)")
        click.echo(f"run on it: judge run {problem_id} {target or 'YOUR_FILE.py'} --input {written}")
    if target is not None:
        click.echo(f"try the public examples:   judge run {problem_id} {target} --examples")
        click.echo(f"submit (hidden tests too): judge run {problem_id} {target}")


@main.command()
@click.argument("problem_id")
@click.option("--level", type=click.IntRange(1), default=None,
              help="Which hint: 1 is a nudge, the last names the key idea (default: the next one).")
@click.pass_obj
def hint(judge, problem_id: str, level: int | None) -> None:
    """Show the next hint for PROBLEM_ID (one level at a time; the level reached is remembered)."""
    shown, warning = judge().tutor.hint(problem_id, level)
    for line in shown.lines():
        click.echo(line)
    if warning:
        click.echo(f"warning: {warning}", err=True)


@main.command()
@click.argument("problem_id")
@click.option("--yes", is_flag=True, help="Show it even before the problem is solved (recorded) without asking.")
@click.pass_obj
def solution(judge, problem_id: str, yes: bool) -> None:
    """Show the reference solution and editorial of PROBLEM_ID (asks first until you have solved it)."""
    tutor = judge().tutor
    problem = judge().problem(problem_id)
    if not yes and not tutor.solved(problem.id):
        if not sys.stdin.isatty():
            raise ConfigError(f"{problem.id} is not solved yet: pass --yes to see its solution anyway "
                              f"(your progress will show it was viewed before solving)")
        if not click.confirm(f"You have not solved {problem.id} yet. Seeing the solution now is recorded in your "
                             f"progress. Show it?", default=False):
            click.echo(f"not shown; `judge hint {problem.id}` gives the next hint instead")
            return
    shown, warning = tutor.solution(problem.id, confirmed=True)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    for line in shown.lines():
        click.echo(line)



@main.command()
@click.argument("problem_id", required=False)
@click.option("--limit", type=click.IntRange(1), default=20, show_default=True, help="How many attempts.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.option("--show", "show_n", type=int, default=None, metavar="N", help="Print the source of attempt #N.")
@click.option("--diff", "diff_nm", type=(int, int), default=None, metavar="N M",
              help="Compare the sources of attempts #N and #M.")
@click.option("--restore", "restore_np", type=(int, click.Path(dir_okay=False)), default=None, metavar="N PATH",
              help="Write the source of attempt #N to PATH.")
@click.option("--force", is_flag=True, help="With --restore: overwrite PATH if it exists.")
@click.pass_obj
def history(judge, problem_id: str | None, limit: int, as_json: bool, show_n: int | None,
            diff_nm: tuple[int, int] | None, restore_np: tuple[int, str] | None, force: bool) -> None:
    """List your judged attempts, newest first (of PROBLEM_ID, or of every problem); show, compare or
    restore the code of one (by its # number)."""
    from pathlib import Path

    from judge.learner.history import history_lines

    if problem_id is not None:
        judge().problem(problem_id)  # an unknown id is a usage error, not an empty history
    tutor = judge().tutor
    if sum(x is not None for x in (show_n, diff_nm, restore_np)) > 1:
        raise ConfigError("--show, --diff and --restore are alternatives; choose one")
    if show_n is not None:
        click.echo(tutor.attempt_source(show_n, problem_id)[1], nl=False)
        return
    if diff_nm is not None:
        for line in tutor.diff(*diff_nm, problem_id):
            click.echo(line)
        return
    if restore_np is not None:
        attempt = tutor.restore(restore_np[0], Path(restore_np[1]), problem_id=problem_id, force=force)
        click.echo(f"wrote {restore_np[1]} from attempt #{attempt.id} ({attempt.problem}, {attempt.when()}, "
                   f"{attempt.verdict})")
        return
    attempts, warning = tutor.attempts(problem_id, limit=limit)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        from judge.base.escape import escape_tree

        click.echo(json.dumps(escape_tree([a.to_json() for a in attempts]), indent=2))  # file names as shown
        return
    for line in history_lines(attempts):
        click.echo(line)


@main.command()
@click.argument("problem_id")
@click.argument("file", type=click.Path(dir_okay=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report on stdout, nothing else.")
@click.option("-v", "--verbose", is_flag=True, help="Show details of every failure and the submission's output.")
@click.option("--examples", "examples_only", is_flag=True, help="Run only the public examples.")
@click.option("--input", "input_file", type=click.Path(dir_okay=False), default=None,
              help="Run on your own input beside the reference: a YAML file of the arguments' values "
                   "(`judge start ID --input FILE` writes one from the first example to edit).")
@click.option("--watch", is_flag=True, help="Judge again every time FILE is saved (Ctrl+C to stop).")
@click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the output (auto: on a terminal, unless NO_COLOR; FORCE_COLOR forces it).")
@click.pass_obj
def run(judge, problem_id: str, file: str, as_json: bool, verbose: bool, examples_only: bool,
        input_file: str | None, watch: bool, color: str) -> None:
    """Judge FILE on PROBLEM_ID: public examples, hidden tests and property checks."""
    if watch and as_json:
        raise ConfigError("--watch and --json are alternatives; choose one")
    from judge.warm import spawn

    warm = watch and input_file is None and not spawn.off()  # a watch's runs go to the warm judge
    if not warm:
        judge.launch_sandbox()
    from judge.render import terminal_output, use_colour

    colour = use_colour(sys.stdout, color)
    from judge.judging.budget import Refinement

    def judge_once():
        """The report, and where its diagnosis' refinement comes (judge.judging.budget)."""
        refinement = Refinement()
        if input_file is not None:
            return judge().run_on_input(problem_id, file, input_file), refinement
        report = _warm_run(judge.problems_dir, problem_id, file, examples_only) if warm else None
        # -v asks for everything: the whole diagnosis, waited for; else the verdict first (judge.judging.budget).
        return report or judge().run(problem_id, file, examples_only=examples_only,
                                     on_refined=None if verbose else refinement.put), refinement

    def show(judged) -> None:
        report, refinement = judged
        if as_json and report.refining:  # a script reads one report: the refined one when it comes
            report = refinement.wait() or report
            report.refining = False
        shown_as_run = examples_only or input_file is not None
        next_step = judge().tutor.next_step(problem_id) if report.accepted and not shown_as_run else None
        stdout, stderr = terminal_output(report, as_json=as_json, verbose=verbose, examples_only=shown_as_run,
                                         colour=colour, next_step=next_step)
        click.echo(stderr, err=True, nl=False)
        click.echo(stdout, nl=False, color=colour)
        if report.refining:
            from judge.render.text import refinement_output

            click.echo(refinement_output(report, refinement.wait(), colour=colour), nl=False, color=colour)

    if watch:
        from judge.base.escape import escape_name
        from judge.cli.watch import watch_file

        def on_change() -> None:
            click.echo(click.style(f"--- judging {escape_name(file)} ---", bold=True), color=colour)
            try:
                show(judge_once())
            except ConfigError as exc:  # a file saved half-way (not UTF-8, gone) is reported, not fatal
                click.echo(f"error: {exc}", err=True)
            click.echo(f"watching {escape_name(file)} for changes (Ctrl+C to stop)")

        watch_file(Path(file), on_change)
        return
    judged = judge_once()
    show(judged)
    _start_warm(judge.problems_dir)  # judged here (the warm path stepped aside): the next run is warm
    sys.exit(0 if judged[0].accepted else 1)


def _warm_run(problems_dir: str | None, problem_id: str, file: str, examples_only: bool):
    """FILE judged by the warm judge (started first when none runs), or None: judge it here."""
    from judge.base.report import Report
    from judge.warm.client import judge_source, read_file

    data = read_file(file)
    report = None if data is None else judge_source(problems_dir, problem_id, data, file,
                                                      origin=os.path.realpath(file), examples_only=examples_only)
    return None if report is None else Report.from_json(report)


def _start_warm(problems_dir: str | None) -> None:
    """Start this key's warm judge in the background unless one runs (judge.warm.spawn); never an error."""
    from judge.warm import protocol, spawn

    if spawn.off() or protocol.private_dir(create=True) is None:
        return
    key = protocol.judge_key(problems_dir, os.getcwd())
    if not protocol.answers(protocol.socket_path(key)):
        spawn.start(problems_dir, key)


@main.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser.")
@click.option("--background", is_flag=True,
              help="Serve the page from the warm judge (started if none runs) and return; it leaves after "
                   "--idle-timeout.")
@click.option("--idle-timeout", type=click.FloatRange(min=1), default=None,
              help="Leave after this many seconds without a request (default: never; with --background, "
                   "$JUDGE_WARM_IDLE or 900).")
@click.option("--status", "show_status", is_flag=True,
              help="Say which judges serve (page URL, problem set, idle time); exit 1 when none does.")
@click.option("--stop", "stop", is_flag=True, help="Stop every judge serving for you (warm judges and pages).")
@click.pass_obj
def serve(judge, port: int, open_browser: bool, background: bool, idle_timeout: float | None,
          show_status: bool, stop: bool) -> None:
    """Serve the local web page (its URL, with a token, on one line) and the warm judge `judge run` uses."""
    if show_status or stop:
        _serve_control(stop)
        return
    try:
        from judge.web.server import ServeOptions, serve as serve_forever, stderr_note
    except ImportError as exc:
        raise ConfigError(f"judge serve needs the web extra ({exc.name} is missing): "
                          f"pip install 'tensor-judge[web]'") from None
    if background:
        from judge.web.background import start_background

        url = start_background(judge.problems_dir, port, idle_timeout)
        click.echo(url)
        if open_browser:
            import webbrowser

            webbrowser.open(url)
        return
    try:
        serve_forever(ServeOptions(judge.problems_dir, port, open_browser, idle_timeout), click.echo, stderr_note)
    except KeyboardInterrupt:  # Ctrl+C is how a foreground server is meant to stop
        pass
    # Said however it ended: uvicorn re-raises a Ctrl+C it caught only where asyncio's own handler
    # does not swallow it first (a Submit cut short at the end of its grace), so serve() may just return.
    click.echo("stopped", err=True)


def _serve_control(stop: bool) -> None:
    """`judge serve --status` / `--stop`: ask the running judges themselves (judge.web.registry)."""
    from judge.web import registry

    servers = registry.running()
    if not servers:
        click.echo("no judge serve is running; `judge run` starts a warm judge, `judge serve` or "
                   "`judge serve --background` a page")
        sys.exit(0 if stop else 1)
    for server in servers:
        if not stop:
            click.echo(server.line())
        elif registry.stop(server):
            click.echo(f"stopped {server.name()}")
        else:
            raise ConfigError(f"{server.name()} did not stop within {registry.STOP_WAIT_S:g} s")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--export", "export_to", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write everything recorded (attempts with their code, answers, hints) to FILE as JSON.")
@click.option("--import", "import_from", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Add the records of an export FILE (records already here are skipped).")
@click.option("--reset", is_flag=True, help="Delete every record (asks first; --yes skips the question).")
@click.option("--yes", is_flag=True, help="With --reset: do not ask.")
@click.option("--tags", is_flag=True, help="Also list problems solved per tag.")
@click.pass_obj
def progress(judge, as_json: bool, export_to: str | None, import_from: str | None, reset: bool, yes: bool,
             tags: bool) -> None:
    """Your progress at a glance: solved per unit, attempts, days in a row, what to take next (--tags: per tag)."""
    if sum(map(bool, (export_to, import_from, reset))) > 1:
        raise ConfigError("--export, --import and --reset are alternatives; choose one")
    tutor = judge().tutor
    if export_to is not None:
        text = json.dumps(tutor.export(), indent=1)
        if export_to == "-":
            click.echo(text)
        else:
            try:
                Path(export_to).write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise ConfigError(f"cannot write the export: {exc.strerror or exc}", file=export_to) from None
            click.echo(f"wrote {export_to}", err=True)
        return
    if import_from is not None:
        try:
            data = json.loads(Path(import_from).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot read a progress export: {exc}", file=import_from) from None
        added, skipped = tutor.import_(data, origin=import_from)
        click.echo(f"imported {added} record(s) from {import_from}; {skipped} already here")
        return
    if reset:
        if not yes:
            if not sys.stdin.isatty():
                raise ConfigError("--reset deletes every record: pass --yes to confirm (consider --export first)")
            click.confirm(f"Delete every attempt, answer and hint recorded in {tutor.path}? "
                          f"(`judge progress --export FILE` keeps a copy)", default=False, abort=True)
        click.echo(f"deleted {tutor.reset()} record(s) from {tutor.path}")
        return
    _, broken = judge().problem_set.load()
    for b in broken:
        click.echo(f"warning: {b.id} is not counted: {b.error}", err=True)
    seen = tutor.overview()
    if as_json:
        click.echo(json.dumps(seen.to_json(), indent=2))
    else:
        for line in seen.lines(tags=tags):
            click.echo(line)


@main.command()
@click.pass_obj
def doctor(judge) -> None:
    """Show the problem set in use (and where), then which sandbox isolation layers are active here."""
    from judge.sandbox.doctor import examine
    from judge.sandbox.isolation import disabled_from_env

    j = judge()
    for source in j.problem_set.sources():
        click.echo(f"problem set: {source.describe()}")
    try:
        disable = disabled_from_env()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    statuses = examine(j.protected_paths(), disable)
    width = max(len(s.name) for s in statuses)
    for status in statuses:
        mark = click.style("✓", fg="green") if status.active else click.style("✗", fg="red")
        click.echo(f"{mark} {status.name.ljust(width)}  {status.detail}")
    missing = [s.name for s in statuses if not s.active]
    if missing:
        click.echo(f"weaker isolation: {len(missing)} of {len(statuses)} layers missing ({', '.join(missing)})")
    else:
        click.echo(f"full isolation: all {len(statuses)} layers active")



@main.command()
@click.argument("problem_id")
@click.argument("directory", type=click.Path(file_okay=True, dir_okay=True))
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Submissions judged at once (default: the number of cores).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout, nothing else.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Also write one CSV row per submission to FILE ('-': stdout, instead of the table).")
@click.pass_obj
def grade(judge, problem_id: str, directory: str, workers: int | None, as_json: bool, csv_file: str | None) -> None:
    """Grade every *.py in DIRECTORY on PROBLEM_ID: verdict, passed/total, time, first failing test.

    Exits with 0 when every file was judged, 1 when the judge failed on some file or could not read it (its
    row says why, a judge_error; the others are graded), 2 when DIRECTORY cannot be listed.
    """
    from pathlib import Path

    if as_json and csv_file:
        raise ConfigError("--json and --csv are alternatives; choose one")
    judge.launch_sandbox()  # its torch import overlaps ours and the problem's preparation (0.1-0.2 s)

    from judge.judging import batch
    from judge.judging.session import Judge

    workers = workers or batch.default_workers()
    with Judge(judge.problems_dir, threads=batch.child_threads(workers), record=False, ahead=True,
               launched=judge.take_launched()) as j:
        files = batch.find_submissions(Path(directory))
        bar = batch.ProgressBar(len(files))
        try:
            result = batch.grade_directory(j, problem_id, Path(directory), workers, on_row=bar.update)
        finally:
            bar.close()
    if as_json:
        click.echo(batch.summary_json(result))
    elif csv_file == "-":
        click.echo(result.csv_text(), nl=False)
    else:
        if csv_file:
            try:
                Path(csv_file).write_text(result.csv_text(), encoding="utf-8")
            except OSError as exc:
                raise ConfigError(f"cannot write the CSV file: {exc.strerror}", file=csv_file) from None
        for line in batch.table_lines(result):
            click.echo(line)
    sys.exit(1 if result.judge_errors else 0)


@main.command()
@click.argument("problem_ids", nargs=-1)
@click.option("-v", "--verbose", is_flag=True, help="Also list every aspect that passed, with its timings.")
@click.option("--mutants", "gate", flag_value="all", default="sample",
              help="Run the mutation gate on every mutant of every accepted solution (default: a seeded sample).")
@click.option("--no-mutants", "gate", flag_value="none", help="Skip the mutation gate.")
@click.option("--seed", type=int, default=0, show_default=True, help="The gate's seed (its sample and probes).")
@click.option("--budget", type=click.FloatRange(min=1), default=None,
              help="The gate's wall-clock budget per problem, in seconds (default: 600 with --mutants, 60 else).")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Mutants judged at once (default: the number of cores).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout, nothing else.")
@click.pass_obj
def validate(judge, problem_ids: tuple[str, ...], verbose: bool, gate: str, seed: int, budget: float | None,
             workers: int | None, as_json: bool) -> None:
    """For authors: check problems (all when no ID is given): schema, reference, examples, traps, known
    submissions, time limits, and the mutation gate (do the tests reject every mutant of an accepted
    solution that is not correct?). Exits with 0 only when every problem validates."""
    from judge.judging import batch
    from judge.authoring.gate import GateOptions
    from judge.authoring.findings import validation_lines
    from judge.render import to_text, use_colour
    from judge.judging.session import Judge
    from judge.authoring.validate import SAMPLE_PER_FILE, validate as validate_problems

    colour = use_colour(sys.stdout)
    workers = workers or batch.default_workers()
    options = None if gate == "none" else GateOptions(
        seed=seed, workers=workers, per_file=None if gate == "all" else SAMPLE_PER_FILE,
        budget_s=budget or (600.0 if gate == "all" else 60.0))

    def show(checked) -> None:
        if not as_json:
            click.echo(to_text(validation_lines(checked, verbose=verbose), colour), color=colour)

    # The gate judges thousands of files: a judge that keeps a run ready for the next, as `judge grade`.
    with Judge(judge.problems_dir, threads=batch.child_threads(workers), record=False, ahead=options is not None
               ) as j:
        clashes = j.problem_set.clashes()     # a pack's ids must not be taken once it is installed
        for clash in clashes:
            click.echo(f"error: {clash}", err=True)
        result = validate_problems(j, problem_ids or None, on_problem=show, gate=options)
    failed = [p.problem for p in result.problems if not p.ok] + (["(ids taken by an installed set)"] if clashes else [])
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        click.echo(f"validation failed: {', '.join(failed)}" if failed
                   else f"all {len(result.problems)} problem(s) valid")
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("problem_ids", nargs=-1)
@click.pass_obj
def prepare(judge, problem_ids: tuple[str, ...]) -> None:
    """Compute and cache the expected values of problems and their traps' outputs (all problems when no
    ID is given), so that the first run of each costs what a later one does. `judge serve` prepares the
    expected values in the background (the traps' outputs are written on its first wrong answer)."""
    import time

    failed = []
    j = judge()

    def show(problem_id: str, seconds: float, error: ConfigError | None) -> None:
        if error is None:
            # The traps too: a wrong answer of a prepared problem then runs none.
            started = time.perf_counter()
            try:
                j.prepared(problem_id).run_traps_ahead()  # the problem just prepared: kept, not prepared again
            except ConfigError as exc:
                error = exc
            seconds += time.perf_counter() - started
        if error is None:
            click.echo(f"prepared {problem_id} in {seconds:.2f} s")
        else:
            failed.append(problem_id)
            click.echo(f"error: {error}", err=True)

    j.prepare_all(list(problem_ids) or None, on_problem=show)
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("problem_id")
@click.option("--framework", type=click.Choice(["torch", "numpy"]), default="torch", show_default=True,
              help="The library solutions use.")
@click.option("--pack", "pack", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Into the problem pack at DIR (an installable package, made with its pyproject.toml).")
@click.option("--one-file", is_flag=True, help="The reference written in tests.yaml instead of reference.py.")
@click.pass_obj
def new(judge, problem_id: str, framework: str, pack: Path | None, one_file: bool) -> None:
    """For authors: scaffold a new problem PROBLEM_ID from commented templates (never overwrites)."""
    from judge.model.locate import is_pack_source, local
    from judge.authoring.scaffold import scaffold, scaffold_pack

    if pack is not None:
        _refuse_taken(problem_id, pack.resolve() / pack.resolve().name.replace("-", "_").replace(".", "_").lower())
        click.echo(f"in the problem pack {pack.resolve()}:")
        created = scaffold_pack(pack, problem_id, framework, one_file)
        for path in created:
            click.echo(f"created {pack.resolve() / path}")
        package = pack / next(p for p in created if len(p.parts) > 1).parts[0]
        click.echo(f"next: edit the files, `judge validate {problem_id}` inside {package}, then `pip install {pack}`")
        return
    # Never into the installed course: the named set, the one here, or a new one in this directory.
    found = local(judge.problems_dir, cwd=Path.cwd(), environ=os.environ)
    root = found.root if found is not None else Path.cwd()
    if is_pack_source(root):
        _refuse_taken(problem_id, root)
    click.echo(f"in the problem set {root} (--problems-dir or JUDGE_PROBLEMS_DIR chooses another):")
    for path in scaffold(root, problem_id, framework, one_file):
        click.echo(f"created {root / path}")
    click.echo(f"next: edit the files, then `judge validate {problem_id}`")


def _refuse_taken(problem_id: str, target: Path) -> None:
    """A pack's problem id held by the installed course or another pack would stop every command once
    the pack is installed: refused before any file is made."""
    from judge.model.locate import holders

    taken = holders(problem_id, target)
    if taken:
        raise ConfigError(f"problem id {problem_id!r} is taken by {taken[0].describe()}: choose another id "
                          "(once the pack is installed, an id in two sets stops every judge command)")


# ---------------------------------------------------------------- the judging service

def _mount_service() -> None:
    from judge.service.commands import service   # its own module: only click at import

    main.add_command(service)


_mount_service()


@main.group("import")
def import_() -> None:
    """Turn another judge's problems into a problem set of this judge (use it with --problems-dir)."""


@import_.command("deepml")
@click.argument("source", type=click.Path(file_okay=False))
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), required=True,
              help="The problem set to write (made if missing; a re-import updates it in place).")
@click.option("--only", "only", default=None, metavar="N[,N...]", help="Only these question numbers.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
def import_deepml(source: str, output: str, only: str | None, as_json: bool) -> None:
    """Import SOURCE, a clone of Deep-ML's open problems (github.com/Open-Deep-ML/DML-OpenProblem), into
    OUTPUT: one problem per question (dml_N) and PyTorch variant (dml_N_torch), each validated as it is
    written. Lists what could not be imported, and where a test's expected_output disagrees with the
    reference. Exits with 0 when at least one problem was imported."""
    from judge.importers.deepml.importer import import_deepml as run_import

    numbers = None
    if only is not None:
        parts = [p.strip() for p in only.split(",") if p.strip()]
        if not parts or not all(p.isdigit() for p in parts):
            raise ConfigError(f"--only: expected question numbers separated by commas, got {only!r}")
        numbers = {int(p) for p in parts}
    progress = None if as_json else (lambda problem_id, outcome: click.echo(f"{problem_id}: {outcome}", err=True))
    report = run_import(Path(source), Path(output), numbers=numbers, on_problem=progress)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=1))
    else:
        for line in report.lines():
            click.echo(line)
        click.echo(f"use it with: judge --problems-dir {report.directory} list --tag deepml")
    sys.exit(0 if report.imported else 1)


def entry() -> int:
    """The `judge` program: run the CLI and return its exit status, for `judge.__main__` to leave with.

    With numpy loaded, tearing the interpreter down costs ~20 ms, a tenth of a
    whole `judge run` on a numpy problem. By the time click returns, every
    file is closed, the fork server is stopped and its scratch removed (the
    context's close callbacks), so `judge.__main__.leave` need only flush the
    output streams. In-process callers (tests, notebooks) use `main` and keep
    a normal exit.
    """
    try:
        main(prog_name="judge")
        return 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1

