"""What every `judge` command shares: the group that turns errors into one line, and the lazy judge.

Each command receives a `LazyJudge` (click's context object) and calls it for
the library's `Judge` only when it needs one, so `--help` reads no problem file.
"""
from __future__ import annotations

import click

from judge.base.errors import ConfigError, ConfigErrors, SandboxError


class JudgeGroup(click.Group):
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


class LazyJudge:
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
