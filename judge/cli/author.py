"""The authors' and teachers' commands: scaffold (new), check (validate), cache (prepare), grade a
directory of submissions (grade), and import another judge's problems (import deepml).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from judge.base.errors import ConfigError


@click.command()
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
    judge.launch_sandbox()  # its torch import overlaps ours and the problem's preparation

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


@click.command()
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


@click.command()
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


@click.command()
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


@click.group("import")
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
