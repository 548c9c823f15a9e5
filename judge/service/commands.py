"""`judge service ...`: the service's command line (the API, workers, accounts, gradebook, similarity).

A click group that `judge.cli.commands` mounts as `judge service`; it imports the
service's extra only when a command runs, so `judge --help` works without it. The
accounts' commands (`judge service users ...`) are judge.service.account_commands.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from judge.base.errors import ConfigError, ConfigErrors
from judge.service.account_commands import users
from judge.service.command_setup import format_when, load_config, open_store, show_text


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
    config = load_config(ctx, database_url=database, redis_url=redis,
                     allowed_hosts=tuple(h.lower() for h in allowed_hosts) or None)
    from judge.service.server import serve

    click.echo(f"judge service on http://{host}:{port}/api/v1 (database {config.database_url.split('://')[0]}, "
               f"{'Redis queue' if config.redis_url else f'{threads} in-process workers'})", err=True)
    serve(config, host, port, pool_threads=threads)


service.add_command(users)


@service.command()
@click.option("--course", required=True, help="The course whose learners are listed.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--wide", is_flag=True, help="One row per learner, a column of points per problem, the total "
              "(the CSV Canvas and Moodle import).")
@click.option("--points-row", is_flag=True, help="With --wide: Canvas's optional Points Possible row.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of standard output.")
@click.pass_context
def gradebook(ctx: click.Context, course: str, fmt: str, wide: bool, points_row: bool, output: Path | None) -> None:
    """Per learner of COURSE and problem: best verdict, attempts, first accepted time, points (see `course set`)."""
    from judge.service.gradebook import gradebook as build, gradebook_csv, gradebook_json, wide as build_wide
    from judge.service.gradebook import wide_csv, wide_json

    store = open_store(ctx)
    try:
        store.known_course(course)
        if wide:
            graded, rows = build_wide(store, course)
        else:
            entries = build(store, course)
    finally:
        store.close()
    if wide:
        count = len(rows)
        text = wide_csv(graded, rows, points_row=points_row) if fmt == "csv" else \
            json.dumps(wide_json(graded, rows), indent=2) + "\n"
    else:
        count = len(entries)
        text = gradebook_csv(entries) if fmt == "csv" else json.dumps(gradebook_json(course, entries), indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the gradebook: {exc.strerror or exc}", file=output) from None
    click.echo(f"wrote {count} rows to {output}", err=True)


@service.group("course")
def course_group() -> None:
    """A course's file: its problems, their points, dates and late rules (judge.service.course)."""


@course_group.command("set")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def course_set(ctx: click.Context, file: Path) -> None:
    """Check FILE and grade its course by it from now on (every process of the service reads it)."""
    from judge.service.course import course_yaml_summary, load_course

    graded, text = load_course(file, ctx.obj().problem_set.ids())
    store = open_store(ctx)
    try:
        # An extension for a login the course does not have is a typo: nobody would get the time.
        logins = {a.user.name for a in store.accounts() if a.user.course == graded.name}
        unknown = [ConfigError(f"no learner {e.login!r} in course {graded.name} (judge service users list shows "
                               "them)", file=file, line=e.line, field=f"extensions.{e.login}")
                   for e in graded.extensions if e.login not in logins]
        if unknown:
            raise unknown[0] if len(unknown) == 1 else ConfigErrors(unknown)
        store.set_course(graded.name, text, str(file))
    finally:
        store.close()
    for line in course_yaml_summary(graded):
        click.echo(line)


@course_group.command("check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def course_check(ctx: click.Context, file: Path) -> None:
    """Check FILE (as `course set` does) without storing it."""
    from judge.service.course import course_yaml_summary, load_course

    graded, _ = load_course(file, ctx.obj().problem_set.ids())
    for line in course_yaml_summary(graded):
        click.echo(line)


@course_group.command("show")
@click.argument("course")
@click.pass_context
def course_show(ctx: click.Context, course: str) -> None:
    """Print COURSE's file as it was set."""
    store = open_store(ctx)
    try:
        store.known_course(course)
        stored = store.course_definition(course)
    finally:
        store.close()
    if stored is None:
        raise ConfigError(f"course {course!r} has no course file: every problem its learners submitted to counts "
                          "one point (judge service course set FILE)")
    click.echo(f"# {stored[1]}", err=True)
    click.echo(stored[0], nl=not stored[0].endswith("\n"))


def _starters(ctx: click.Context) -> dict[str, str]:
    """Every problem's starter code; a problem gone from the set has none (its submissions still compare)."""
    try:
        problems, _ = ctx.obj().problem_set.load()
    except ConfigError:
        return {}
    return {p.id: p.starter for p in problems}


@service.command()
@click.option("--course", required=True)
@click.option("--problem", default=None, help="One problem (default: every problem, each pair's scores side by side).")
@click.option("--threshold", type=click.FloatRange(0, 1), default=0.8, show_default=True,
              help="Report pairs at least this alike (0-1).")
@click.option("--unusual", type=click.FloatRange(0, 100), default=3.0, show_default=True,
              help="And at least this many spreads above the class's typical pair on the problem (0: the threshold "
                   "alone).")
@click.option("--limit", type=click.IntRange(1), default=None, help="At most this many pairs (default: all).")
@click.option("--offset", type=click.IntRange(0), default=0, show_default=True, help="Skip this many pairs first.")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_context
def similarity(ctx: click.Context, course: str, problem: str | None, threshold: float, unusual: float,
               limit: int | None, offset: int, as_json: bool) -> None:
    """Pairs of COURSE's learners whose submissions are alike where a disguise makes no difference (names,
    comments, layout, statement order, helpers, loops or comprehensions, dead code), and unusually so in
    their class: a problem with one natural solution makes many pairs alike, and those are not listed."""
    from judge.service.similarity import by_problem, course_found, similar_found

    starters = _starters(ctx)
    store = open_store(ctx)
    try:
        store.known_course(course)
        learners, submissions = store.course(course, problem)
    finally:
        store.close()
    names = {u.name: u.display for u in learners}
    found = course_found(by_problem(submissions), threshold, starters, unusual=unusual) if problem is None else \
        similar_found(submissions, threshold, starters.get(problem, ""), unusual=unusual)
    shown = found.pairs[offset:offset + limit if limit is not None else None]
    if as_json:
        click.echo(json.dumps({"course": course, **({"problem": problem} if problem else {}), "threshold": threshold,
                               "unusual": unusual, "submissions": len(submissions), "total": len(found.pairs),
                               "common": found.common, "offset": offset,
                               "pairs": [{**p.to_json(), "a_name": names.get(p.a, p.a), "b_name": names.get(p.b, p.b)}
                                         for p in shown]}, indent=2))
        return
    where = f"on a problem, among {len(submissions)} submissions in {course}" if problem is None else \
        f"among {len(submissions)} submissions to {problem} in {course}"
    click.echo(f"{len(found.pairs)} pair(s) of learners at least {threshold:.0%} alike and {unusual:g} spreads above "
               f"their class's typical pair {where}"
               + (f" ({offset + 1}-{offset + len(shown)} shown)" if len(shown) < len(found.pairs) else ""))
    if found.common:
        click.echo(f"  ({found.common} more reach {threshold:.0%} but are typical of their class on that problem: "
                   "not listed)")

    def who(login: str) -> str:
        return f"{show_text(names.get(login, login))} ({show_text(login)})" if names.get(login, login) != login else show_text(login)

    def unusual_text(z: float | None, percentile: float) -> str:
        return "class too small to compare" if z is None else f"z {z:.1f}, above {percentile:.0f}% of the class"

    for p in shown:
        if problem is None:
            scores = ", ".join(f"{s.problem} {s.similarity:.0%}" + (f" (z {s.z:.1f})" if s.z is not None else "")
                               for s in p.problems)
            click.echo(f"  {who(p.a)} · {who(p.b)}: {p.flagged} of {len(p.problems)} problem(s) flagged, "
                       f"mean {p.mean:.0%} ({scores})")
        else:
            click.echo(f"  {p.similarity:5.0%}  {unusual_text(p.z, p.percentile)}  {who(p.a)} ({p.a_submission})  "
                       f"{who(p.b)} ({p.b_submission})")


@service.command()
@click.argument("submission_id")
@click.option("--report", "with_report", is_flag=True, help="Print the report after the source.")
@click.option("--json", "as_json", is_flag=True, help="Everything as JSON (as the API gives it).")
@click.pass_context
def show(ctx: click.Context, submission_id: str, with_report: bool, as_json: bool) -> None:
    """Print a submission's source (who, what, when and the verdict on standard error)."""
    store = open_store(ctx)
    try:
        found = store.get(submission_id)
    finally:
        store.close()
    if found is None:
        raise ConfigError(f"no submission {submission_id!r} (the gradebook, similarity and the review page name them)")
    submission, owner = found
    if as_json:
        from judge.base.escape import escape_tree

        click.echo(json.dumps(escape_tree(submission.to_json(with_source=True)), indent=2))
        return
    passed = (submission.report or {}).get("passed"), (submission.report or {}).get("total")
    who = show_text(owner.name) if not owner.full_name else f"{show_text(owner.full_name)} [{show_text(owner.name)}]"
    click.echo(f"{who} ({show_text(owner.course) or 'no course'}) on {show_text(submission.problem)}, "
               f"{format_when(submission.created_at)}: {submission.verdict or submission.status}"
               + (f" {passed[0]}/{passed[1]}" if isinstance(passed[0], int) else ""), err=True)
    from judge.base.escape import escape_controls

    # The source as stored, its control and bidirectional characters made visible as every face shows them.
    click.echo(escape_controls(submission.source, keep="\n\t"), nl=not submission.source.endswith("\n"))
    if with_report and submission.report is not None:
        from judge.render import render_text
        from judge.base.report import Report

        try:
            text = render_text(Report.from_json(submission.report), verbose=True)
        except (ValueError, TypeError, KeyError) as exc:   # stored by another version of the judge
            from judge.base.escape import escape_tree

            click.echo(f"the stored report is not one this judge renders ({exc}); as stored:", err=True)
            text = json.dumps(escape_tree(submission.report), indent=2)
        click.echo(text)


@service.command()
@click.option("--course", required=True)
@click.option("--problem", default=None, help="One problem (default: every problem the course submitted to).")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_context
def analytics(ctx: click.Context, course: str, problem: str | None, as_json: bool) -> None:
    """Per problem: how many of COURSE's learners made each named mistake, and the tests most failed."""
    from judge.service.analytics import analytics as build, analytics_json, analytics_lines

    store = open_store(ctx)
    try:
        store.known_course(course)
        found = build(store, course, problem)
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps(analytics_json(course, found), indent=2))
        return
    for line in analytics_lines(found) or [f"nothing judged yet in {course}"]:
        click.echo(line)


@service.command()
@click.argument("problem")
@click.option("--course", default=None, help="Only this course's submissions (default: everyone's).")
@click.option("--all", "everything", is_flag=True, help="Every judged submission, not only those judged on other "
              "files than the problem's current ones.")
@click.option("--status", "status_only", is_flag=True, help="Send nothing: say how the latest regrade stands and "
              "what it flipped.")
@click.option("--wait/--no-wait", default=True, show_default=True, help="Wait for the new verdicts and list the flips.")
@click.option("--timeout", type=click.FloatRange(1), default=3600, show_default=True, help="Seconds to wait.")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_context
def regrade(ctx: click.Context, problem: str, course: str | None, everything: bool, status_only: bool, wait: bool,
            timeout: float, as_json: bool) -> None:
    """Judge PROBLEM's stored submissions again after its tests or reference changed; list what flipped.

    They go through the queue after every fresh submission (learners take turns); each previous
    result is kept, and the gradebook uses the new ones as they come.
    """
    from judge.service import regrade as regrades

    config = load_config(ctx, **ctx.meta["service"])
    store = open_store(ctx)
    queue = None
    try:
        if course is not None:
            store.known_course(course)
        if not status_only:
            found = ctx.obj().problem(problem)          # an unknown id is a one-line error
            if config.redis_url:
                from judge.service.queue import RedisQueue

                queue = RedisQueue(config.redis_url)
            sent = regrades.start(store, queue, found, course=course, everything=everything)
            scope = f" of {course}" if course else ""
            if not sent.ids:
                click.echo(f"nothing to regrade: every judged submission{scope} to {problem} was judged on its "
                           f"current files (version {sent.version[:12]})", err=True)
                return
            click.echo(f"sent {len(sent.ids)} submission(s){scope} to {problem} to be judged again on version "
                       f"{sent.version[:12]}" + ("" if queue is not None else
                                                 f"; the running judge service picks them up within "
                                                 f"{config.requeue_after_s + config.reap_every_s:g} s"), err=True)
        if status_only or not wait:
            state = regrades.progress(store, problem, course)
        else:
            state = regrades.wait(store, problem, course, timeout, on_progress=lambda p: None)
    finally:
        if queue is not None:
            queue.close()
        store.close()
    if as_json:
        click.echo(json.dumps({"problem": problem, "course": course, "asked_at": state.asked_at, "sent": state.sent,
                               "done": state.done, "flips": [f.to_json() for f in state.flips]}, indent=2))
        return
    if state.asked_at is None:
        click.echo(f"{problem} has not been regraded")
        return
    click.echo(f"regrade of {problem} asked {format_when(state.asked_at)}: {state.done} of {state.sent} judged again, "
               f"{len(state.flips)} changed")
    for f in state.flips:
        who = show_text(f.learner) + (f" ({show_text(f.name)})" if f.name and f.name != f.learner else "")
        click.echo(f"  {who}  {f.submission}  {f.before} {_of(f.passed_before, None)} -> "
                   f"{f.after} {_of(f.passed_after, f.total_after)}")
    if not state.finished and not status_only and wait:
        raise ConfigError(f"{state.sent - state.done} submission(s) were not judged again within {timeout:g} s: "
                          f"are workers running? `judge service regrade {problem} --status` shows the rest later")


def _of(passed: int | None, total: int | None) -> str:
    if passed is None:
        return ""
    return f"({passed}/{total})" if total is not None else f"({passed})"


@service.command()
@click.option("--processes", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Judging threads per process.")
@click.pass_context
def worker(ctx: click.Context, processes: int, threads: int) -> None:
    """Judge queued submissions: PROCESSES Dramatiq workers, each with one warm sandbox (needs --redis)."""
    config = load_config(ctx, **ctx.meta["service"])
    if not config.redis_url:
        raise ConfigError("judge service worker needs a Redis URL: --redis URL or JUDGE_SERVICE_REDIS")
    from judge.model.problemset import ProblemSet
    from judge.service.server import check_problem_set
    from judge.service.supervisor import run_workers

    # Refused here, in one line, rather than in every worker process's boot hook over and over.
    check_problem_set(ProblemSet.find(config.problems_dir))
    open_store(ctx).close()                          # the database URL works, or one line says why
    ctx.exit(run_workers(config, processes, threads, echo=lambda line: click.echo(line, err=True)))
