"""A roster in, tokens out: every row checked first, all accounts or none, tokens in a new private file; people's
names as an LMS writes them, logins given or made from them, an email or id never shared within a course."""
from __future__ import annotations

import csv
import stat

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")

from click.testing import CliRunner  # noqa: E402

from judge.cli.commands import main  # noqa: E402
from judge.base.errors import ConfigError, ConfigErrors  # noqa: E402
from judge.service.accounts import authenticate  # noqa: E402
from judge.service.roster import import_roster, read_roster  # noqa: E402

ROSTER = ("\ufeffName,Course,Email,ID,Section\n"           # as a spreadsheet saves it: a BOM, an extra column
          "ada,ml101,ada@example.org,S-1001,A\n"
          "grace,ml101,,S-1002,A\n"
          "\n"
          "alan,ml102,alan@example.org,,B\n")


def _tokens(path):
    with path.open(newline="") as handle:
        return {row["name"]: row for row in csv.DictReader(handle)}


def test_a_roster_reads_with_optional_columns_and_ignores_others(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    roster = read_roster(path)
    assert [(e.name, e.login, e.course, e.email, e.student_id, e.role, e.line, e.section) for e in roster.entries] == [
        ("ada", "ada", "ml101", "ada@example.org", "S-1001", "learner", 2, "A"),
        ("grace", "grace", "ml101", None, "S-1002", "learner", 3, "A"),
        ("alan", "alan", "ml102", "alan@example.org", None, "learner", 5, "B")]
    assert roster.ignored == ()


def test_every_bad_row_is_named_at_once_and_nothing_is_created(tmp_path, store):
    path = tmp_path / "roster.csv"
    path.write_text("name,login,course,email,id,role\nAda,ada,ml101,not-an-email,,learner\nX,=cmd|x,ml101,,,\n"
                    "Ada Two,ada,ml 101,,,\nGrace,,ml101,,,teacher\n,,ml101,,,\nBell\x07,,ml101,,,\n"
                    "Jean,,ml101,j@example.org,S1,\nJeanne,,ml101,J@example.org,S1,\n", encoding="utf-8")
    with pytest.raises(ConfigErrors) as caught:
        read_roster(path)
    assert caught.value.lines() == [
        f"{path}:2: email: 'not-an-email': expected an address like ada@example.org",
        f"{path}:3: login: '=cmd|x': expected 1-64 letters, digits or _.@- (starting with a letter or digit)",
        f"{path}:4: login: 'ada' is on line 2 too",
        f"{path}:4: course: 'ml 101': expected 1-64 letters, digits or _.@-",
        f"{path}:5: role: 'teacher': expected one of learner, instructor",
        f"{path}:6: name: empty: expected the person's name (1-128 characters)",
        f"{path}:7: name: 'Bell\\x07': expected text without control characters (U+0007)",
        f"{path}:9: email: 'J@example.org' is on line 8 too (in course ml101: an LMS would put both learners' "
        "grades on one)",
        f"{path}:9: id: 'S1' is on line 8 too (in course ml101: an LMS would put both learners' grades on one)"]
    assert store.accounts() == []


@pytest.mark.parametrize("text, message", [
    ("", "empty: expected a header row"),
    ("learner,class\nada,ml101\n", "header: no column name or course"),
    ("name,course,name\nada,ml101,ada\n", "header: column name appears twice"),
    ("name,course\n", "no learners: only a header row"),
])
def test_a_roster_that_is_not_one_is_one_line(tmp_path, text, message):
    path = tmp_path / "roster.csv"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        read_roster(path)
    assert message in str(caught.value) and str(caught.value).startswith(str(path))
    latin = tmp_path / "latin.csv"
    latin.write_bytes("name,course\nJos\xe9,ml101\n".encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        read_roster(latin)


def test_the_accounts_are_created_together_and_the_tokens_written_privately(tmp_path, store):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    out = tmp_path / "tokens.csv"
    assert len(import_roster(store, read_roster(path), out).entries) == 3
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    tokens = _tokens(out)
    assert list(tokens) == ["ada", "grace", "alan"]
    ada = authenticate(store, tokens["ada"]["token"])
    assert (ada.name, ada.course, ada.email, ada.student_id) == ("ada", "ml101", "ada@example.org", "S-1001")
    assert (tokens["grace"]["email"], tokens["alan"]["course"]) == ("", "ml102")
    # A second import with one name taken creates nothing, and leaves no token file behind.
    again = tmp_path / "again.csv"
    path.write_text("name,login,course\nBarbara,barbara,ml101\nAda L.,ada,ml101\n")
    with pytest.raises(ConfigError) as caught:
        import_roster(store, read_roster(path), again)
    assert str(caught.value) == f"{path}:3: login: 'ada' has an account already; nothing was added"
    assert not again.exists() and "barbara" not in {a.user.name for a in store.accounts()}
    # The tokens file is never overwritten: its tokens are shown once.
    path.write_text("name,course\nbarbara,ml101\n")
    with pytest.raises(ConfigError, match="exists already: tokens are shown once"):
        import_roster(store, read_roster(path), out)
    assert _tokens(out)["ada"] == tokens["ada"]


def test_the_cli_imports_a_class_of_300(tmp_path, store):
    path = tmp_path / "roster.csv"
    path.write_text("name,course,email,id\n" + "".join(f"learner{i:03d},ml101,l{i}@example.org,S{i}\n"
                                                       for i in range(300)))
    url = store.engine.url.render_as_string(hide_password=False)
    out = tmp_path / "tokens.csv"
    result = CliRunner().invoke(main, ["service", "--database", url, "users", "import", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"created 300 account(s) in ml101; their tokens are in {out}")
    tokens = _tokens(out)
    assert len(tokens) == 300 and len({row["token"] for row in tokens.values()}) == 300
    assert authenticate(store, tokens["learner299"]["token"]).student_id == "S299"
    listed = CliRunner().invoke(main, ["service", "--database", url, "users", "list", "--json"])
    assert len([line for line in listed.output.splitlines() if '"name"' in line]) == 300


def test_no_cell_of_the_tokens_file_is_a_formula(tmp_path, store):
    """An email may begin with + or - (EMAIL allows it): in the tokens file it is quoted, the token left whole."""
    path = tmp_path / "roster.csv"
    path.write_text("name,course,email\nada,ml101,+1+cmd@example.org\ngrace,ml101,-2+3@example.org\n")
    out = tmp_path / "tokens.csv"
    assert len(import_roster(store, read_roster(path), out).entries) == 2
    tokens = _tokens(out)
    assert (tokens["ada"]["email"], tokens["grace"]["email"]) == ("'+1+cmd@example.org", "'-2+3@example.org")
    assert authenticate(store, tokens["ada"]["token"]).email == "+1+cmd@example.org"


def test_real_names_are_kept_and_logins_made_from_them(tmp_path, store):
    """An LMS export's names (accents, `Last, First`, apostrophes, letters that do not decompose) are the
    people's names; a row without a login gets one folded to ASCII, unique, and the import says so."""
    path = tmp_path / "roster.csv"
    path.write_text("name,course,email,id,section\nChloé Dupont,ml101,chloe@example.org,S1,Lab A\n"
                    "\"Dupont, Jean\",ml101,jean@example.org,S2,Lab B\nZoë O'Brien-Łukasz,ml101,,S3,Lab A\n"
                    "Jean Dupont,ml101,,S4,\n=HYPERLINK(1),ml101,,S5,\n王伟,ml101,,S6,\n", encoding="utf-8")
    url = store.engine.url.render_as_string(hide_password=False)
    out = tmp_path / "tokens.csv"
    result = CliRunner().invoke(main, ["service", "--database", url, "users", "import", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:] == [
        "6 login(s) made from the names (the roster has no login for them):",
        "  line 2: Chloé Dupont -> chloe.dupont", "  line 3: Dupont, Jean -> jean.dupont",
        "  line 4: Zoë O'Brien-Łukasz -> zoe.o.brien.lukasz", "  line 5: Jean Dupont -> jean.dupont2",
        "  line 6: =HYPERLINK(1) -> hyperlink.1", "  line 7: 王伟 -> learner"]
    with out.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["name"], r["login"]) for r in rows][:3] == [("Chloé Dupont", "chloe.dupont"),
                                                          ("Dupont, Jean", "jean.dupont"),
                                                          ("Zoë O'Brien-Łukasz", "zoe.o.brien.lukasz")]
    assert rows[4]["name"] == "'=HYPERLINK(1)"                       # never a formula
    jean = authenticate(store, rows[1]["token"])
    assert (jean.name, jean.full_name, jean.section, jean.display) == ("jean.dupont", "Dupont, Jean", "Lab B",
                                                                      "Dupont, Jean")
    # Importing the same people again is refused (not a second set of accounts); so is a course's email again.
    again = tmp_path / "again.csv"
    path.write_text("name,course\nChloé Dupont,ml101\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        import_roster(store, read_roster(path), again)
    assert str(caught.value) == (f"{path}:2: name: 'Chloé Dupont' has an account in ml101 already "
                                 "(login chloe.dupont); nothing was added")
    path.write_text("name,course,email\nChloé Martin,ml101,CHLOE@example.org\nAda,ml102,chloe@example.org\n",
                    encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        import_roster(store, read_roster(path), again)
    assert str(caught.value) == (f"{path}:2: email: 'CHLOE@example.org' is the email of account 'chloe.dupont' in "
                                 "ml101 already; nothing was added")
    assert not again.exists()
