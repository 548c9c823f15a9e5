"""What every `judge service` command needs: the service's settings, its database opened, and a time as
the commands print it, and a text from outside made safe to print. The service's extra is imported only here, when a command runs, so a missing extra
reads as one line naming it."""
from __future__ import annotations

import datetime as dt

import click

from judge.base.errors import ConfigError


def load_config(ctx: click.Context, **overrides):
    from judge.service.config import ServiceConfig

    try:
        return ServiceConfig.from_env(problems_dir=ctx.obj.problems_dir, **overrides)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"the service needs its extra: pip install -e '.[service]' ({exc})") from None


def open_store(ctx: click.Context):
    try:
        from judge.service.storage import Store
    except ModuleNotFoundError as exc:
        raise ConfigError(f"the service needs its extra: pip install -e '.[service]' ({exc})") from None
    return Store(load_config(ctx, **ctx.meta["service"]).database_url)


def format_when(timestamp: float | None) -> str:
    if timestamp is None:
        return "never"
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def show_text(text: str) -> str:
    """`text` (a name, a column a roster gave) with its control characters made visible, for a terminal."""
    from judge.base.escape import escape_controls

    return escape_controls(text, keep="")
