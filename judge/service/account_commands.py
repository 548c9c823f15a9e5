"""`judge service users ...`: the service's accounts and their tokens, one at a time or a roster at once."""
from __future__ import annotations

import json
import time
from pathlib import Path

import click

from judge.base.errors import ConfigError
from judge.service.command_setup import format_when, open_store, show_text


@click.group()
def users() -> None:
    """The service's accounts and their tokens."""


EXPIRES = click.option("--expires", default=None, metavar="WHEN",
                       help="The token ends after a duration (90m, 12h, 30d, 2w) or on a date (2027-01-31, UTC).")


@users.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(["learner", "instructor"]), default="learner", show_default=True)
@click.option("--course", default="", help="The course the account belongs to (an instructor sees its submissions).")
@click.option("--email", default=None, help="The learner's email (the wide gradebook's SIS Login ID).")
@click.option("--id", "student_id", default=None, help="The school's student id (the wide gradebook's SIS User ID).")
@click.option("--name", "full_name", default=None, help="The person's name, any text (the gradebook's Student; "
              "default: NAME, the login).")
@click.option("--section", default=None, help="The roster's section (the wide gradebook's Section).")
@EXPIRES
@click.pass_context
def users_add(ctx: click.Context, name: str, role: str, course: str, email: str | None, student_id: str | None,
              full_name: str | None, section: str | None, expires: str | None) -> None:
    """Create an account; its API token is printed once, as the last line (a class at once: users import)."""
    from judge.service.accounts import add_user, parse_expiry

    expires_at = parse_expiry(expires)
    store = open_store(ctx)
    try:
        account = add_user(store, name, role, course, expires_at, email=email, student_id=student_id,
                           full_name=full_name, section=section)
    finally:
        store.close()
    click.echo(f"created {role} {name}" + (f" in course {course}" if course else "")
               + (f", token valid until {format_when(expires_at)}" if expires_at else "") + "; the token (shown once):")
    click.echo(account.token)


@users.command("list")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_context
def users_list(ctx: click.Context, as_json: bool) -> None:
    """Every account: role, course, and whether its token is active, expired or revoked (never the token)."""
    store = open_store(ctx)
    try:
        accounts = store.accounts()
    finally:
        store.close()
    now = time.time()
    if as_json:
        click.echo(json.dumps([{"name": a.user.name, "full_name": a.user.full_name, "section": a.user.section,
                                "role": a.user.role, "course": a.user.course,
                                "state": a.state(now), "created_at": a.created_at, "expires_at": a.expires_at,
                                "revoked_at": a.revoked_at} for a in accounts], indent=2))
        return
    if not accounts:
        click.echo("no accounts yet: judge service users add NAME")
        return
    header = ("login", "role", "course", "token", "expires", "name")
    rows = [(a.user.name, a.user.role, a.user.course or "-", a.state(now), format_when(a.expires_at),
             show_text(a.user.full_name or "")) for a in accounts]
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for row in [header, *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


@users.command("import")
@click.argument("roster", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", "tokens", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The new CSV file the tokens are written to (name, course, email, id, token); never overwritten.")
@EXPIRES
@click.pass_context
def users_import(ctx: click.Context, roster: Path, tokens: Path, expires: str | None) -> None:
    """Create an account per row of ROSTER (CSV: name, course; optionally login, email, id, section, role), all
    or none, and write their tokens to a file to hand out. A row without a login gets one made from the name."""
    from judge.service.accounts import parse_expiry
    from judge.service.roster import import_roster, read_roster

    expires_at = parse_expiry(expires)
    found = read_roster(roster)
    store = open_store(ctx)
    try:
        created = import_roster(store, found, tokens, expires_at)
    finally:
        store.close()
    courses = sorted({e.course for e in created.entries})
    if found.ignored:
        click.echo(f"ignored column(s): {', '.join(show_text(c) for c in found.ignored)}", err=True)
    click.echo(f"created {len(created.entries)} account(s) in {', '.join(courses)}; their tokens are in {tokens} "
               "(shown once: hand each learner their line, then delete the file)")
    # A login made from a name that was already a login (alice -> alice) surprises nobody: not listed.
    derived = [e for e in created.entries if e.derived and e.login != e.name]
    if derived:
        click.echo(f"{len(derived)} login(s) made from the names (the roster has no login for them):")
        for e in derived:
            click.echo(f"  line {e.line}: {show_text(e.name)} -> {e.login}")


@users.command("disable")
@click.argument("name")
@click.pass_context
def users_disable(ctx: click.Context, name: str) -> None:
    """Stop serving NAME (401 on every request) and leave them out of the gradebook; `enable` undoes it."""
    _update_account(ctx, name, "disabled", lambda store: store.set_disabled(name, True))


@users.command("enable")
@click.argument("name")
@click.pass_context
def users_enable(ctx: click.Context, name: str) -> None:
    """Serve a disabled account again (its token, unless revoked or expired, works again)."""
    _update_account(ctx, name, "enabled", lambda store: store.set_disabled(name, False))


@users.command("move")
@click.argument("name")
@click.option("--course", required=True, help="The course NAME belongs to from now on.")
@click.pass_context
def users_move(ctx: click.Context, name: str, course: str) -> None:
    """Move NAME, with their submissions, to another course."""
    from judge.service.accounts import NAME

    if not NAME.fullmatch(course):
        raise ConfigError(f"--course {course!r}: expected 1-64 letters, digits or _.@-")
    _update_account(ctx, name, f"moved to {course}", lambda store: store.move(name, course))


@users.command("delete")
@click.argument("name")
@click.option("--keep-submissions", "keep", flag_value=True, default=None,
              help="Keep their submissions (under deleted-<n>-NAME; out of the gradebook, still compared).")
@click.option("--remove-submissions", "keep", flag_value=False, help="Remove their submissions too.")
@click.pass_context
def users_delete(ctx: click.Context, name: str, keep: bool | None) -> None:
    """Delete NAME's account; say what becomes of their submissions."""
    if keep is None:
        raise ConfigError("say what becomes of the submissions: --keep-submissions or --remove-submissions")
    store = open_store(ctx)
    try:
        removed = store.delete_user(name, keep_submissions=keep)
    finally:
        store.close()
    click.echo(f"deleted {name}; " + ("their submissions are kept" if keep else f"{removed} submission(s) removed"))


def _update_account(ctx: click.Context, name: str, done: str, change) -> None:
    store = open_store(ctx)
    try:
        change(store)
    finally:
        store.close()
    click.echo(f"{name}: {done}")


@users.command("revoke")
@click.argument("name")
@click.pass_context
def users_revoke(ctx: click.Context, name: str) -> None:
    """End NAME's token now: its next request gets 401 (`rotate` gives the account a new one)."""
    from judge.service.accounts import revoke

    store = open_store(ctx)
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
    store = open_store(ctx)
    try:
        account = rotate(store, name, expires_at)
    finally:
        store.close()
    click.echo(f"new token for {name}" + (f", valid until {format_when(expires_at)}" if expires_at else "")
               + "; the old one no longer works; the token (shown once):")
    click.echo(account.token)
