"""The `judge` command line: a thin layer over `judge.session.Judge`.

Exit codes of `judge run`: 0 accepted, 1 judged and not accepted, 2 usage or
configuration error (one line on stderr naming the file and what is wrong).
"""
from __future__ import annotations

import json
import os
import sys

import click

from judge.errors import ConfigError, ConfigErrors, SandboxError


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

    def __call__(self):
        if self._judge is None:
            from judge.session import Judge

            self._judge = Judge(self.problems_dir, launched=self._launched)
            self._launched = None
        return self._judge

    def close(self) -> None:
        if self._launched is not None:
            self._launched.abandon()
        if self._judge is not None:
            self._judge.close()


@main.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.pass_obj
def list_(judge, as_json: bool) -> None:
    """List every problem: id, title, difficulty, tags, and your status (solved, attempted, new)."""
    from judge.progress import problem_statuses

    problems = judge().problems()
    statuses, warning = problem_statuses([p.id for p in problems])
    if warning:
        click.echo(f"warning: {warning}", err=True)
    items = [{"id": p.id, "title": p.title, "difficulty": p.difficulty, "tags": list(p.tags),
              "framework": p.framework, "status": statuses[p.id].value} for p in problems]
    if as_json:
        click.echo(json.dumps(items, indent=2))
        return
    width = max((len(i["id"]) for i in items), default=2)
    title_width = max((len(i["title"]) for i in items), default=5)
    colours = {"solved": "green", "attempted": "yellow", "new": None}
    for item in items:
        status = click.style(f"{item['status']:<9}", fg=colours[item["status"]])
        click.echo(f"{status}  {item['id'].ljust(width)}  {item['title'].ljust(title_width)}  "
                   f"{item['difficulty']:<6}  {item['framework']:<5}  {', '.join(item['tags'])}")


@main.command()
@click.argument("problem_id")
@click.pass_obj
def show(judge, problem_id: str) -> None:
    """Show a problem: statement, signature, rules and public examples."""
    from judge.cases import MAIN
    from judge.display import show_input, show_value

    j = judge()
    problem = j.problem(problem_id)
    click.echo(click.style(f"{problem.title}  [{problem.id}, {problem.difficulty}, {problem.framework}]", bold=True))
    click.echo()
    from judge.markdown import render_markdown
    from judge.report import to_text, use_colour
    from judge.statement import statement_markdown

    colour = use_colour(sys.stdout)
    click.echo(to_text(render_markdown(statement_markdown(problem), colour=colour), colour), color=colour)
    click.echo()
    click.echo(click.style("Signature", bold=True))
    click.echo(f"    {problem.signature}")
    click.echo()
    click.echo(click.style("Limits", bold=True))
    click.echo(f"    {problem.limits.time_s:g} s per test, {problem.limits.memory_mb} MiB of memory")
    for case, expected in j.example_outputs(problem):
        click.echo()
        click.echo(click.style(f"Example: {case.name}", bold=True))
        for name, spec in case.test.inputs.items():
            click.echo(f"    {name} = {show_input(spec, case.args[case.arg_index(name)], '    ')}")
        main = expected[MAIN]
        if main.error is not None:
            click.echo(f"    raises {main.error.type}")
        else:
            click.echo("    returns:")
            click.echo(show_value(main.value, "      "))
        if case.test.explanation:
            click.echo(f"    {case.test.explanation.strip()}")


@main.command()
@click.argument("problem_id")
@click.argument("path", required=False, type=click.Path())
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
@click.pass_obj
def start(judge, problem_id: str, path: str | None, force: bool) -> None:
    """Write a starter file for PROBLEM_ID to PATH (default ./PROBLEM_ID.py)."""
    from pathlib import Path

    from judge.starter import write_starter

    target = write_starter(judge().problem(problem_id), Path(path) if path else None, force=force)
    click.echo(f"wrote {target}")
    click.echo(f"try the public examples:   judge run {problem_id} {target} --examples")
    click.echo(f"submit (hidden tests too): judge run {problem_id} {target}")


@main.command()
@click.argument("problem_id")
@click.option("--level", type=int, default=1, show_default=True,
              help="Which hint: 1 is a nudge, the last names the key idea.")
@click.pass_obj
def hint(judge, problem_id: str, level: int) -> None:
    """Show a hint for PROBLEM_ID, one level at a time."""
    from judge.hints import hint as get_hint

    for line in get_hint(judge().problem(problem_id), level).lines():
        click.echo(line)


@main.command()
@click.argument("problem_id", required=False)
@click.option("--limit", type=click.IntRange(1), default=20, show_default=True, help="How many attempts.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.pass_obj
def history(judge, problem_id: str | None, limit: int, as_json: bool) -> None:
    """List your judged attempts, newest first (of PROBLEM_ID, or of every problem)."""
    from judge.progress import ProgressStore, ProgressUnavailable, history_lines

    if problem_id is not None:
        judge().problem(problem_id)  # an unknown id is a usage error, not an empty history
    try:
        attempts = ProgressStore().attempts(problem_id, limit=limit)
    except ProgressUnavailable as exc:
        click.echo(f"warning: {exc}", err=True)
        attempts = []
    if as_json:
        click.echo(json.dumps([a.to_json() for a in attempts], indent=2))
        return
    for line in history_lines(attempts):
        click.echo(line)


@main.command()
@click.argument("problem_id")
@click.argument("file", type=click.Path(dir_okay=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report on stdout, nothing else.")
@click.option("-v", "--verbose", is_flag=True, help="Show details of every failure and the submission's output.")
@click.option("--examples", "examples_only", is_flag=True, help="Run only the public examples.")
@click.pass_obj
def run(judge, problem_id: str, file: str, as_json: bool, verbose: bool, examples_only: bool) -> None:
    """Judge FILE on PROBLEM_ID: public examples, hidden tests and property checks."""
    judge.launch_sandbox()
    from judge.report import render_text, use_colour

    report = judge().run(problem_id, file, examples_only=examples_only)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(report.dumps())
    else:
        colour = use_colour(sys.stdout)
        click.echo(render_text(report, verbose=verbose, values=examples_only, colour=colour), color=colour)
    sys.exit(0 if report.accepted else 1)


@main.command()
@click.pass_obj
def doctor(judge) -> None:
    """Show which sandbox isolation layers are active on this machine, and why any is missing."""
    from judge.sandbox.doctor import examine
    from judge.sandbox.isolation import disabled_from_env

    j = judge()
    try:
        disable = disabled_from_env()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    statuses = examine(tuple(j.root / name for name in ("hidden_tests", "submissions", "problems")), disable)
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

    Exits with 0 when every file was judged, 1 when the judge failed on some file.
    """
    from pathlib import Path

    from judge import batch
    from judge.session import Judge

    if as_json and csv_file:
        raise ConfigError("--json and --csv are alternatives; choose one")
    workers = workers or batch.default_workers()
    with Judge(judge.problems_dir, threads=batch.child_threads(workers), record=False) as j:
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
@click.pass_obj
def validate(judge, problem_ids: tuple[str, ...], verbose: bool) -> None:
    """For authors: check problems (all when no ID is given): schema, reference, examples, known
    submissions and time limits. Exits with 0 only when every problem validates."""
    from judge.validate import render, validate as validate_problems

    def show(checked) -> None:
        for text, colour in render(checked, verbose=verbose):
            click.echo(click.style(text, fg=colour) if colour else text)

    result = validate_problems(judge(), problem_ids or None, on_problem=show)
    failed = [p.problem for p in result.problems if not p.ok]
    click.echo(f"validation failed: {', '.join(failed)}" if failed else f"all {len(result.problems)} problem(s) valid")
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("problem_id")
@click.option("--framework", type=click.Choice(["torch", "numpy"]), default="torch", show_default=True,
              help="The library solutions use.")
@click.pass_obj
def new(judge, problem_id: str, framework: str) -> None:
    """For authors: scaffold a new problem PROBLEM_ID from commented templates (never overwrites)."""
    from judge.problem import find_root
    from judge.scaffold import scaffold

    for path in scaffold(find_root(judge.problems_dir), problem_id, framework):
        click.echo(f"created {path}")
    click.echo(f"next: edit the files, then `judge validate {problem_id}`")


def entry() -> None:
    """The `judge` program: run the CLI, then leave without the interpreter's teardown.

    With numpy loaded, tearing the interpreter down costs ~20 ms, a tenth of a
    whole `judge run` on a numpy problem. By the time click returns, every
    file is closed, the fork server is stopped and its scratch removed (the
    context's close callbacks), so only the output streams need flushing.
    In-process callers (tests, notebooks) use `main` and keep a normal exit.
    """
    try:
        main(prog_name="judge")
        code = 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # e.g. a closed pipe: nothing more can be said
        code = code or 1
    os._exit(code)

