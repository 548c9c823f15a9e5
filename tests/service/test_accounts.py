"""Accounts: tokens shown once and stored hashed; `judge service users add` prints the token last."""
from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from click.testing import CliRunner

from judge.cli import main
from judge.errors import ConfigError
from judge.service.accounts import add_user, authenticate, hash_token
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
