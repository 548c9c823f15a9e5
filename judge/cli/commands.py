"""The `judge` command line: one click group over `judge.judging.session.Judge`, assembled here.

The commands live by audience: judge.cli.learner (the course, a problem, the
record), judge.cli.run (`judge run`), judge.cli.author (new, validate, prepare,
grade, import), judge.cli.server (serve, doctor), and judge.service.commands
(`judge service`). Each is a few lines over the library.

Exit codes of `judge run`: 0 accepted, 1 judged and not accepted, 2 usage or
configuration error (one line on stderr naming the file and what is wrong).
"""
from __future__ import annotations

import os
import sys

import click

from judge.cli import author, learner, server
from judge.cli.group import JudgeGroup, LazyJudge
from judge.cli.run import run
from judge.service.commands import service  # its own module: only click at import


@click.group(cls=JudgeGroup)
@click.option("--problems-dir", envvar="JUDGE_PROBLEMS_DIR", type=click.Path(file_okay=False),
              help="A problem set laid out like the repository (problems/, hidden_tests/, submissions/).")
@click.version_option(package_name="tensor-judge")
@click.pass_context
def main(ctx: click.Context, problems_dir: str | None) -> None:
    """tensor-judge: practice problems for tensor code, judged offline in a sandbox."""
    if os.environ.get("NO_COLOR"):  # https://no-color.org; click's echo follows ctx.color
        ctx.color = False
    ctx.obj = LazyJudge(problems_dir)
    ctx.call_on_close(ctx.obj.close)


for command in (learner.list_, learner.units, learner.unit, learner.quiz, learner.show, learner.start, learner.hint,
                learner.solution, learner.history, run, server.serve, learner.progress, server.doctor,
                author.grade, author.validate, author.prepare, author.new, service, author.import_):
    main.add_command(command)


def entry() -> int:
    """The `judge` program: run the CLI and return its exit status, for `judge.__main__` to leave with.

    Once click returns, every file is closed and the fork server stopped (the context's close callbacks),
    so `judge.__main__.leave` skips the interpreter's teardown, a good part of a short run once numpy is
    loaded. In-process callers (tests, notebooks) call `main` and keep a normal exit.
    """
    try:
        main(prog_name="judge")
        return 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
