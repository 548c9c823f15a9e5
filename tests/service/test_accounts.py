"""Accounts: tokens shown once and stored hashed; `judge service users add` prints the token last."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

import json
import time

from click.testing import CliRunner

from judge.cli.commands import main
from judge.base.errors import ConfigError
from judge.service.accounts import add_user, authenticate, hash_token, parse_expiry
from judge.service.storage import Store


@pytest.fixture
def sqlite_store(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    yield s
    s.close()


def test_a_token_authenticates_its_user_and_only_its_hash_is_stored(sqlite_store):
    account = add_user(sqlite_store, "alice")
    assert authenticate(sqlite_store, account.token) == account.user
    assert account.user.role == "learner"
    with sqlite_store.engine.connect() as connection:
        stored = connection.exec_driver_sql("SELECT token_hash FROM users").scalar_one()
        dump = "\n".join(connection.connection.iterdump()) if hasattr(connection.connection, "iterdump") else ""
    assert stored == hash_token(account.token) and account.token not in stored
    assert account.token not in dump


def test_wrong_tokens_authenticate_nobody(sqlite_store):
    account = add_user(sqlite_store, "alice")
    for token in ("", account.token[:-1], account.token + "x", "tj_" + "A" * 43, hash_token(account.token),
                  "tj_" + "x" * 500):
        assert authenticate(sqlite_store, token) is None


def test_tokens_differ_between_accounts(sqlite_store):
    assert add_user(sqlite_store, "a").token != add_user(sqlite_store, "b").token


@pytest.mark.parametrize("name, role, course, message", [
    ("", "learner", "", "user name ''"),
    ("has space", "learner", "", "user name 'has space'"),
    ("alice", "admin", "", "role 'admin': expected one of learner, instructor"),
    ("teach", "instructor", "", "an instructor needs a course"),
    ("alice", "learner", "bad course!", "course 'bad course!'"),
])
def test_bad_account_fields_are_one_line_errors(sqlite_store, name, role, course, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        add_user(sqlite_store, name, role, course)


def test_users_add_prints_the_token_as_its_last_line(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    runner = CliRunner()
    result = runner.invoke(main, ["service", "--database", url, "users", "add", "teach", "--role", "instructor",
                                  "--course", "ml101"])
    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    store = Store(url)
    try:
        user = authenticate(store, token)
        assert (user.name, user.role, user.course) == ("teach", "instructor", "ml101")
    finally:
        store.close()
    again = runner.invoke(main, ["service", "--database", url, "users", "add", "teach"])
    assert again.exit_code == 2 and again.output.strip() == "error: user 'teach' already exists"


def _cli(url: str, *args: str):
    return CliRunner().invoke(main, ["service", "--database", url, "users", *args])


def test_users_list_rotate_and_revoke(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    first = _cli(url, "add", "alice", "--course", "ml101").output.strip().splitlines()[-1]
    assert _cli(url, "add", "bob", "--expires", "30d").exit_code == 0
    listed = _cli(url, "list")
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert lines[0].split() == ["login", "role", "course", "token", "expires", "name"]
    assert lines[1].split()[:5] == ["alice", "learner", "ml101", "active", "never"]
    assert lines[2].split()[:4] == ["bob", "learner", "-", "active"] and "UTC" in lines[2]
    assert first not in listed.output

    rotated = _cli(url, "rotate", "alice")
    assert rotated.exit_code == 0 and rotated.output.splitlines()[0].startswith("new token for alice")
    second = rotated.output.strip().splitlines()[-1]
    assert second.startswith("tj_") and second != first
    store = Store(url)
    try:
        assert authenticate(store, first) is None and authenticate(store, second).name == "alice"
        assert _cli(url, "revoke", "alice").output == "revoked the token of alice\n"
        assert authenticate(store, second) is None
        state = {row["name"]: row["state"] for row in json.loads(_cli(url, "list", "--json").output)}
        assert state == {"alice": "revoked", "bob": "active"}
        third = _cli(url, "rotate", "alice", "--expires", "2h").output.strip().splitlines()[-1]
        assert authenticate(store, third).name == "alice"     # rotating gives a revoked account a token again
        [alice] = [a for a in store.accounts() if a.user.name == "alice"]
        assert alice.revoked_at is None and 7100 < alice.expires_at - time.time() <= 7200
    finally:
        store.close()
    missing = _cli(url, "revoke", "nobody")
    assert missing.exit_code == 2 and missing.output.strip() == (
        "error: no user 'nobody' (judge service users list shows them)")


@pytest.mark.parametrize("value, message", [
    ("soon", "--expires 'soon': expected a duration (90m, 12h, 30d, 2w) or a date"),
    ("0d", "--expires 0d: a duration above zero"),
    ("2001-01-01", "--expires 2001-01-01: that is in the past"),
])
def test_bad_expiries_are_one_line_errors(tmp_path, value, message):
    result = _cli(f"sqlite:///{tmp_path / 'db.sqlite3'}", "add", "alice", "--expires", value)
    assert result.exit_code == 2 and result.output.startswith(f"error: {message}")
    assert result.output.count("\n") == 1


def test_expiry_forms():
    now = 1_800_000_000.0
    assert parse_expiry("90m", now) == now + 5400 and parse_expiry("2w", now) == now + 14 * 86400
    assert parse_expiry("2030-01-31", now) == 1896048000.0                 # midnight UTC
    assert parse_expiry("2030-01-31T18:00+01:00", now) == 1896048000.0 + 17 * 3600
    assert parse_expiry(None, now) is None


def test_an_account_table_of_an_older_version_gains_the_new_columns(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:   # the tables as the first release made them
        db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name VARCHAR(64) UNIQUE, role VARCHAR(16), "
                   "course VARCHAR(64), token_hash VARCHAR(64) UNIQUE, created_at FLOAT)")
        db.execute("INSERT INTO users VALUES (1, 'alice', 'learner', '', ?, 0)", (hash_token("tj_old"),))
    store = Store(f"sqlite:///{path}")
    try:
        assert authenticate(store, "tj_old").name == "alice"
        store.revoke("alice")
        assert authenticate(store, "tj_old") is None
    finally:
        store.close()


def test_accounts_are_disabled_enabled_moved_and_deleted_from_the_cli(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    token = _cli(url, "add", "alice", "--course", "ml101", "--email", "alice@example.org", "--id", "S7")\
        .output.strip().splitlines()[-1]
    bob = _cli(url, "add", "bob", "--course", "ml101").output.strip().splitlines()[-1]
    store = Store(url)
    try:
        assert authenticate(store, token).email == "alice@example.org"
        assert _cli(url, "disable", "alice").output == "alice: disabled\n"
        assert authenticate(store, token) is None
        state = {row["name"]: row["state"] for row in json.loads(_cli(url, "list", "--json").output)}
        assert state == {"alice": "disabled", "bob": "active"}
        assert _cli(url, "enable", "alice").output == "alice: enabled\n"
        assert authenticate(store, token).name == "alice"                  # the same token works again
        assert _cli(url, "move", "alice", "--course", "ml102").output == "alice: moved to ml102\n"
        assert authenticate(store, token).course == "ml102"
        [sid] = store.create(authenticate(store, bob), [("patchify", "x = 1")])
        refused = _cli(url, "delete", "bob")
        assert refused.exit_code == 2 and refused.output == (
            "error: say what becomes of the submissions: --keep-submissions or --remove-submissions\n")
        assert _cli(url, "delete", "bob", "--keep-submissions").output == "deleted bob; their submissions are kept\n"
        assert authenticate(store, bob) is None and store.get(sid) is not None
        assert "bob" not in _cli(url, "list").output
        assert _cli(url, "delete", "alice", "--remove-submissions").output == "deleted alice; 0 submission(s) removed\n"
        for command in ("disable", "enable", "delete"):
            gone = _cli(url, command, "alice", *(["--remove-submissions"] if command == "delete" else []))
            assert gone.exit_code == 2 and gone.output == "error: no user 'alice' (judge service users list shows them)\n"
        bad = _cli(url, "add", "carol", "--email", "carol")
        assert bad.exit_code == 2 and bad.output == "error: --email 'carol': expected an address like ada@example.org\n"
    finally:
        store.close()
