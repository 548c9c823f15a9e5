"""`judge service ...`: the service's command line (the API, workers, accounts, gradebook, similarity).

A click group that `judge.cli` mounts as `judge service`; it imports the
service's extra only when a command runs, so `judge --help` works without it.
"""
from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

import click

from judge.errors import ConfigError


def _config(ctx: click.Context, **overrides):
    from judge.service.config import ServiceConfig

    try:
        return ServiceConfig.from_env(problems_dir=ctx.obj.problems_dir, **overrides)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"the service needs its extra: pip install -e '.[service]' ({exc})") from None


def _store(ctx: click.Context):
    try:
        from judge.service.storage import Store
    except ModuleNotFoundError as exc:
        raise ConfigError(f"the service needs its extra: pip install -e '.[service]' ({exc})") from None
    return Store(_config(ctx, **ctx.meta["service"]).database_url)


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return "never"
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


@click.group(invoke_without_command=True)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--database", default=None, help="SQLAlchemy URL (default: SQLite in the data directory; "
              "or JUDGE_SERVICE_DATABASE).")
@click.option("--redis", default=None, help="Redis URL of the queue (or JUDGE_SERVICE_REDIS); "
              "without it, this process judges with an in-process pool.")
@click.option("--threads", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Judging threads of the in-process pool (no Redis).")
@click.option("--allowed-host", "allowed_hosts", multiple=True,
              help="A Host name the API answers to (repeatable; default localhost, 127.0.0.1, ::1, "
                   "or JUDGE_SERVICE_ALLOWED_HOSTS; * for any).")
@click.pass_context
def service(ctx: click.Context, port: int, host: str, database: str | None, redis: str | None, threads: int,
            allowed_hosts: tuple[str, ...]) -> None:
    """Run the judging service: the HTTP API at /api/v1 (and, without Redis, its workers)."""
    ctx.meta["service"] = {"database_url": database, "redis_url": redis}
    if ctx.invoked_subcommand is not None:
        return
    config = _config(ctx, database_url=database, redis_url=redis,
                     allowed_hosts=tuple(h.lower() for h in allowed_hosts) or None)
    from judge.service.server import serve

    click.echo(f"judge service on http://{host}:{port}/api/v1 (database {config.database_url.split('://')[0]}, "
               f"{'Redis queue' if config.redis_url else f'{threads} in-process workers'})", err=True)
    serve(config, host, port, pool_threads=threads)


@service.group()
def users() -> None:
    """The service's accounts and their tokens."""


EXPIRES = click.option("--expires", default=None, metavar="WHEN",
                       help="The token ends after a duration (90m, 12h, 30d, 2w) or on a date (2027-01-31, UTC).")


@users.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(["learner", "instructor"]), default="learner", show_default=True)
@click.option("--course", default="", help="The course the account belongs to (an instructor sees its submissions).")
@EXPIRES
@click.pass_context
def users_add(ctx: click.Context, name: str, role: str, course: str, expires: str | None) -> None:
    """Create an account; its API token is printed once, as the last line."""
    from judge.service.accounts import add_user, parse_expiry

    expires_at = parse_expiry(expires)
    store = _store(ctx)
    try:
        account = add_user(store, name, role, course, expires_at)
    finally:
        store.close()
    click.echo(f"created {role} {name}" + (f" in course {course}" if course else "")
               + (f", token valid until {_when(expires_at)}" if expires_at else "") + "; the token (shown once):")
    click.echo(account.token)


@users.command("list")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_context
def users_list(ctx: click.Context, as_json: bool) -> None:
    """Every account: role, course, and whether its token is active, expired or revoked (never the token)."""
    store = _store(ctx)
    try:
        accounts = store.accounts()
    finally:
        store.close()
    now = time.time()
    if as_json:
        click.echo(json.dumps([{"name": a.user.name, "role": a.user.role, "course": a.user.course,
                                "state": a.state(now), "created_at": a.created_at, "expires_at": a.expires_at,
                                "revoked_at": a.revoked_at} for a in accounts], indent=2))
        return
    if not accounts:
        click.echo("no accounts yet: judge service users add NAME")
        return
    rows = [(a.user.name, a.user.role, a.user.course or "-", a.state(now), _when(a.expires_at)) for a in accounts]
    widths = [max(len(r[i]) for r in rows + [("name", "role", "course", "token", "expires")]) for i in range(5)]
    for row in [("name", "role", "course", "token", "expires"), *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


@users.command("revoke")
@click.argument("name")
@click.pass_context
def users_revoke(ctx: click.Context, name: str) -> None:
    """End NAME's token now: its next request gets 401 (`rotate` gives the account a new one)."""
    from judge.service.accounts import revoke

    store = _store(ctx)
    try:
        revoke(store, name)
    finally:
        store.close()
    click.echo(f"revoked the token of {name}")


@users.command("rotate")
@click.argument("name")
@EXPIRES
@click.pass_context
def users_rotate(ctx: click.Context, name: str, expires: str | None) -> None:
    """Give NAME a new token (printed once, as the last line); the old one stops working now."""
    from judge.service.accounts import parse_expiry, rotate

    expires_at = parse_expiry(expires)
    store = _store(ctx)
    try:
        account = rotate(store, name, expires_at)
    finally:
        store.close()
    click.echo(f"new token for {name}" + (f", valid until {_when(expires_at)}" if expires_at else "")
               + "; the old one no longer works; the token (shown once):")
    click.echo(account.token)


@service.command()
@click.option("--course", required=True, help="The course whose learners are listed.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of standard output.")
@click.pass_context
def gradebook(ctx: click.Context, course: str, fmt: str, output: Path | None) -> None:
    """Per learner of COURSE and problem: best verdict, attempts, first accepted time."""
    from judge.service.gradebook import gradebook as build, gradebook_csv, gradebook_json

    store = _store(ctx)
    try:
        entries = build(store, course)
    finally:
        store.close()
    text = gradebook_csv(entries) if fmt == "csv" else json.dumps(gradebook_json(course, entries), indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the gradebook: {exc.strerror or exc}", file=output) from None
    click.echo(f"wrote {len(entries)} rows to {output}", err=True)


@service.command()
@click.option("--course", required=True)
@click.option("--problem", required=True)
@click.option("--threshold", type=click.FloatRange(0, 1), default=0.8, show_default=True,
              help="Report pairs at least this alike (0-1).")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_context
def similarity(ctx: click.Context, course: str, problem: str, threshold: float, as_json: bool) -> None:
    """Pairs of COURSE's learners whose submissions to PROBLEM are alike (renaming and layout do not count)."""
    from judge.service.similarity import similar_pairs

    starter = ""
    try:
        starter = ctx.obj().problem(problem).starter
    except (ConfigError, AttributeError, KeyError):
        pass   # a problem gone from the problem set: its submissions are still compared
    store = _store(ctx)
    try:
        _, submissions = store.course(course, problem)
    finally:
        store.close()
    pairs = similar_pairs(submissions, threshold, boilerplate=starter)
    if as_json:
        click.echo(json.dumps({"course": course, "problem": problem, "threshold": threshold,
                               "submissions": len(submissions), "pairs": [p.to_json() for p in pairs]}, indent=2))
        return
    click.echo(f"{len(pairs)} pair(s) of learners at least {threshold:.0%} alike among {len(submissions)} "
               f"submissions to {problem} in {course}")
    for p in pairs:
        click.echo(f"  {p.similarity:5.0%}  {p.a} ({p.a_submission})  {p.b} ({p.b_submission})")


@service.command()
@click.option("--processes", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Judging threads per process.")
@click.pass_context
def worker(ctx: click.Context, processes: int, threads: int) -> None:
    """Judge queued submissions: PROCESSES Dramatiq workers, each with one warm sandbox (needs --redis)."""
    config = _config(ctx, **ctx.meta["service"])
    if not config.redis_url:
        raise ConfigError("judge service worker needs a Redis URL: --redis URL or JUDGE_SERVICE_REDIS")
    from judge.service.supervisor import run_workers

    ctx.exit(run_workers(config, processes, threads, echo=lambda line: click.echo(line, err=True)))
