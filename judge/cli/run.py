"""`judge run`: judge a file here or through the warm judge, once or on every save (--watch).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from judge.base.errors import ConfigError
from judge.warm.daemon import DEFAULT_IDLE_S, IDLE_ENV
from judge.warm.spawn import idle_words

RUN_HELP = f"""Judge FILE on PROBLEM_ID: public examples, hidden tests and property checks.

The first run starts the warm judge and says so in one line on stderr: a background process that keeps
torch imported, so that later runs are fast. It stops by itself after {idle_words(DEFAULT_IDLE_S)} idle
(${IDLE_ENV} seconds), `judge serve --stop` stops it now, and JUDGE_NO_WARM=1 starts none.
"""


@click.command(help=RUN_HELP)
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
        report = _judge_warm(judge.problems_dir, problem_id, file, examples_only) if warm else None
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
    _start_warm_judge(judge.problems_dir)  # judged here (the warm path stepped aside): the next run is warm
    sys.exit(0 if judged[0].accepted else 1)


def _judge_warm(problems_dir: str | None, problem_id: str, file: str, examples_only: bool):
    """FILE judged by the warm judge (started first when none runs), or None: judge it here."""
    from judge.base.report import Report
    from judge.warm.client import judge_source, read_file

    data = read_file(file)
    report = None if data is None else judge_source(problems_dir, problem_id, data, file,
                                                      origin=os.path.realpath(file), examples_only=examples_only,
                                                      announce=True)
    return None if report is None else Report.from_json(report)


def _start_warm_judge(problems_dir: str | None) -> None:
    """Start this key's warm judge in the background unless one runs (judge.warm.spawn); never an error."""
    from judge.warm import protocol, spawn

    if spawn.off() or protocol.private_dir(create=True) is None:
        return
    key = protocol.judge_key(problems_dir, os.getcwd())
    if not protocol.answers(protocol.socket_path(key)):
        spawn.start(problems_dir, key, announce=True)
