"""The commands about the judge running here: `judge serve` (the page, the warm judges' status and stop)
and `judge doctor` (the problem set in use and the sandbox's isolation).
"""
from __future__ import annotations

import sys

import click

from judge.base.errors import ConfigError


@click.command()
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


@click.command()
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
