"""The learner's commands: the course (list, units, unit, quiz), a problem (show, start, hint, solution),
and the record (history, progress); `judge run` has its own module (judge.cli.run).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from judge.base.errors import ConfigError


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.option("--unit", "unit_id", default=None, help="Only the problems of this unit (e.g. 5.5), in its order.")
@click.option("--tag", "tags", multiple=True, help="Only problems with this tag (repeat: all of them).")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default=None)
@click.option("--status", type=click.Choice(["solved", "attempted", "new"]), default=None)
@click.pass_obj
def list_(judge, as_json: bool, unit_id: str | None, tags: tuple[str, ...], difficulty: str | None,
          status: str | None) -> None:
    """List every problem in course order: id, title, difficulty, tags, and your status (solved, attempted,
    new); a unit's extras are marked."""
    from judge.learner.listing import select_problems

    tutor = judge().tutor
    listing = tutor.listing()
    for broken in listing.broken:  # one broken file must not hide the others
        click.echo(f"warning: {broken.id} is not listed: {broken.error}", err=True)
    unit = tutor.unit(unit_id) if unit_id is not None else None
    if listing.warning:
        click.echo(f"warning: {listing.warning}", err=True)
    items = select_problems(tutor, listing.entries, unit=unit, tags=tags, difficulty=difficulty, status=status)
    if as_json:
        click.echo(json.dumps(items, indent=2))
        return
    if not items:
        click.echo("no problem matches")
        return
    from judge.render import listing_lines, terminal_width, to_text, use_colour

    colour = use_colour(sys.stdout)
    click.echo(to_text(listing_lines(items, min(100, terminal_width())), colour), color=colour)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.pass_obj
def units(judge, as_json: bool) -> None:
    """List the course units with your progress: problems solved, questions right, passed."""
    tutor = judge().tutor
    standings = []
    for unit in tutor.units():
        standing, warning = tutor.standing(unit)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        standings.append(standing)
    if as_json:
        click.echo(json.dumps([s.to_json() for s in standings], indent=2))
        return
    if not standings:
        click.echo("no units in this problem set (units/*.yaml)")
        return
    from judge.render import to_text, units_lines, use_colour

    colour = use_colour(sys.stdout)
    click.echo(to_text(units_lines(standings), colour), color=colour)


@click.command()
@click.argument("unit_id")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.pass_obj
def unit(judge, unit_id: str, as_json: bool) -> None:
    """Show a unit: its problems in order with your status, its questions, what is left."""
    u = judge().tutor.unit(unit_id)
    standing, warning = judge().tutor.standing(u)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(json.dumps(standing.to_json(), indent=2))
        return
    problems, _ = judge().problem_set.load()
    titles = {p.id: p.title for p in problems if p.id in (*u.problems, *u.extras)}
    from judge.render import terminal_width, to_text, unit_lines, use_colour

    colour = use_colour(sys.stdout)
    click.echo(to_text(unit_lines(standing, titles, min(100, terminal_width())), colour), color=colour)


@click.command()
@click.argument("unit_id")
@click.option("--answer", "answers", type=(str, str), multiple=True, metavar="QUESTION VALUE",
              help="Answer QUESTION with VALUE without asking (repeatable; for scripts).")
@click.option("--all", "ask_all", is_flag=True, help="Ask every question, also those already answered right.")
@click.pass_obj
def quiz(judge, unit_id: str, answers: tuple[tuple[str, str], ...], ask_all: bool) -> None:
    """Answer a unit's self-test questions; each answer is recorded and explained.

    Without --answer, asks in the terminal every question not yet answered right.
    Exits with 0 when every answer given was right, 1 otherwise.
    """
    from judge.learner.units import LETTERS

    tutor = judge().tutor
    u = tutor.unit(unit_id)
    if answers:
        pairs = [(u.question(qid), value) for qid, value in answers]  # unknown ids: exit 2 before recording
    else:
        standing, warning = tutor.standing(u)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        todo = [q for q in u.questions if ask_all or not standing.answers.get(q.id, ("", False))[1]]
        if not todo:
            click.echo(f"every question of unit {u.id} is answered right (--all asks them again)")
            return
        pairs = [(q, None) for q in todo]
    all_right = True
    warned = False
    for q, value in pairs:
        click.echo(click.style(f"{q.id}: {q.prompt}", bold=True))
        for i, option in enumerate(q.options):
            click.echo(f"  {LETTERS[i]}) {option}")
        # In the terminal, one retry before the answer is shown; an answer given by --answer is final.
        tries = 1 if value is not None else 2
        while True:
            text = value if value is not None else click.prompt("your answer", prompt_suffix="> ")
            taken = tutor.answer(u, q.id, text)
            if taken.verdict.unreadable:
                click.echo(f"  cannot read {text!r}: {taken.verdict.unreadable}")
                if value is not None:
                    raise ConfigError(f"--answer {q.id}: cannot read {text!r}: {taken.verdict.unreadable}")
                continue
            if taken.warning and not warned:
                click.echo(f"warning: {taken.warning}", err=True)
                warned = True
            tries -= 1
            if taken.right or tries == 0:
                break
            click.echo(click.style(f"  not quite ({taken.verdict.answer}); one more try", fg="yellow"))
        if taken.right:
            click.echo(click.style(f"  right: {taken.verdict.answer}", fg="green"))
        else:
            all_right = False
            click.echo(click.style(f"  wrong: {taken.verdict.answer}; the answer is {q.expected()}", fg="red"))
        click.echo(f"  {q.explanation.strip()}")
    standing = taken.standing if pairs else tutor.standing(u)[0]
    click.echo()
    if standing.passed:
        click.echo(click.style(f"passed: unit {u.id} is complete", fg="green", bold=True)
                   + (f"; next: unit {u.next}" if u.next else ""))
    else:
        click.echo(f"unit {u.id}: problems {standing.solved}/{standing.problems_needed()}, "
                   f"questions {standing.right}/{standing.questions_needed()} right")
    sys.exit(0 if all_right else 1)


@click.command()
@click.argument("problem_id")
@click.pass_obj
def show(judge, problem_id: str) -> None:
    """Show a problem: statement, signature, rules and public examples."""
    from judge.render import problem_lines, to_text, use_colour

    j = judge()
    problem = j.problem(problem_id)
    colour = use_colour(sys.stdout)
    lines = problem_lines(problem, j.examples(problem), colour=colour)
    click.echo(to_text(lines, colour), color=colour)


@click.command()
@click.argument("problem_id")
@click.argument("path", required=False, type=click.Path())
@click.option("--input", "input_path", type=click.Path(dir_okay=False), default=None,
              help="Write an input file for `judge run --input` (the first example's, to edit) to this path; "
                   "without PATH, only that file.")
@click.option("--force", is_flag=True, help="Overwrite PATH (and the --input file) if it exists.")
@click.pass_obj
def start(judge, problem_id: str, path: str | None, input_path: str | None, force: bool) -> None:
    """Write a starter file for PROBLEM_ID to PATH (default ./PROBLEM_ID.py)."""
    from pathlib import Path

    from judge.authoring.starter import write_input_template, write_starter

    problem = judge().problem(problem_id)
    target = None
    if path is not None or input_path is None:
        target = write_starter(problem, Path(path) if path else None, force=force)
        click.echo(f"wrote {target}")
    if input_path is not None:
        written = write_input_template(problem, Path(input_path), force=force)
        click.echo(f"wrote {written} (the example {problem.examples[0].name}'s input: edit it)")
        click.echo(f"run on it: judge run {problem_id} {target or 'YOUR_FILE.py'} --input {written}")
    if target is not None:
        click.echo(f"try the public examples:   judge run {problem_id} {target} --examples")
        click.echo(f"submit (hidden tests too): judge run {problem_id} {target}")


@click.command()
@click.argument("problem_id")
@click.option("--level", type=click.IntRange(1), default=None,
              help="Which hint: 1 is a nudge, the last names the key idea (default: the next one).")
@click.pass_obj
def hint(judge, problem_id: str, level: int | None) -> None:
    """Show the next hint for PROBLEM_ID (one level at a time; the level reached is remembered)."""
    shown, warning = judge().tutor.hint(problem_id, level)
    for line in shown.lines():
        click.echo(line)
    if warning:
        click.echo(f"warning: {warning}", err=True)


@click.command()
@click.argument("problem_id")
@click.option("--yes", is_flag=True, help="Show it even before the problem is solved (recorded) without asking.")
@click.pass_obj
def solution(judge, problem_id: str, yes: bool) -> None:
    """Show the reference solution and editorial of PROBLEM_ID (asks first until you have solved it)."""
    tutor = judge().tutor
    problem = judge().problem(problem_id)
    if not yes and not tutor.solved(problem.id):
        if not sys.stdin.isatty():
            raise ConfigError(f"{problem.id} is not solved yet: pass --yes to see its solution anyway "
                              f"(your progress will show it was viewed before solving)")
        if not click.confirm(f"You have not solved {problem.id} yet. Seeing the solution now is recorded in your "
                             f"progress. Show it?", default=False):
            click.echo(f"not shown; `judge hint {problem.id}` gives the next hint instead")
            return
    shown, warning = tutor.solution(problem.id, confirmed=True)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    for line in shown.lines():
        click.echo(line)



@click.command()
@click.argument("problem_id", required=False)
@click.option("--limit", type=click.IntRange(1), default=20, show_default=True, help="How many attempts.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@click.option("--show", "show_n", type=int, default=None, metavar="N", help="Print the source of attempt #N.")
@click.option("--diff", "diff_nm", type=(int, int), default=None, metavar="N M",
              help="Compare the sources of attempts #N and #M.")
@click.option("--restore", "restore_np", type=(int, click.Path(dir_okay=False)), default=None, metavar="N PATH",
              help="Write the source of attempt #N to PATH.")
@click.option("--force", is_flag=True, help="With --restore: overwrite PATH if it exists.")
@click.pass_obj
def history(judge, problem_id: str | None, limit: int, as_json: bool, show_n: int | None,
            diff_nm: tuple[int, int] | None, restore_np: tuple[int, str] | None, force: bool) -> None:
    """List your judged attempts, newest first (of PROBLEM_ID, or of every problem); show, compare or
    restore the code of one (by its # number)."""
    from pathlib import Path

    from judge.learner.history import history_lines

    if problem_id is not None:
        judge().problem(problem_id)  # an unknown id is a usage error, not an empty history
    tutor = judge().tutor
    if sum(x is not None for x in (show_n, diff_nm, restore_np)) > 1:
        raise ConfigError("--show, --diff and --restore are alternatives; choose one")
    if show_n is not None:
        click.echo(tutor.attempt_source(show_n, problem_id)[1], nl=False)
        return
    if diff_nm is not None:
        for line in tutor.diff(*diff_nm, problem_id):
            click.echo(line)
        return
    if restore_np is not None:
        attempt = tutor.restore(restore_np[0], Path(restore_np[1]), problem_id=problem_id, force=force)
        click.echo(f"wrote {restore_np[1]} from attempt #{attempt.id} ({attempt.problem}, {attempt.when()}, "
                   f"{attempt.verdict})")
        return
    attempts, warning = tutor.attempts(problem_id, limit=limit)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        from judge.base.escape import escape_tree

        click.echo(json.dumps(escape_tree([a.to_json() for a in attempts]), indent=2))  # file names as shown
        return
    for line in history_lines(attempts):
        click.echo(line)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--export", "export_to", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write everything recorded (attempts with their code, answers, hints) to FILE as JSON.")
@click.option("--import", "import_from", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Add the records of an export FILE (records already here are skipped).")
@click.option("--reset", is_flag=True, help="Delete every record (asks first; --yes skips the question).")
@click.option("--yes", is_flag=True, help="With --reset: do not ask.")
@click.option("--tags", is_flag=True, help="Also list problems solved per tag.")
@click.pass_obj
def progress(judge, as_json: bool, export_to: str | None, import_from: str | None, reset: bool, yes: bool,
             tags: bool) -> None:
    """Your progress at a glance: solved per unit, attempts, days in a row, what to take next (--tags: per tag)."""
    if sum(map(bool, (export_to, import_from, reset))) > 1:
        raise ConfigError("--export, --import and --reset are alternatives; choose one")
    tutor = judge().tutor
    if export_to is not None:
        text = json.dumps(tutor.export(), indent=1)
        if export_to == "-":
            click.echo(text)
        else:
            try:
                Path(export_to).write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise ConfigError(f"cannot write the export: {exc.strerror or exc}", file=export_to) from None
            click.echo(f"wrote {export_to}", err=True)
        return
    if import_from is not None:
        try:
            data = json.loads(Path(import_from).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot read a progress export: {exc}", file=import_from) from None
        added, skipped = tutor.import_(data, origin=import_from)
        click.echo(f"imported {added} record(s) from {import_from}; {skipped} already here")
        return
    if reset:
        if not yes:
            if not sys.stdin.isatty():
                raise ConfigError("--reset deletes every record: pass --yes to confirm (consider --export first)")
            click.confirm(f"Delete every attempt, answer and hint recorded in {tutor.path}? "
                          f"(`judge progress --export FILE` keeps a copy)", default=False, abort=True)
        click.echo(f"deleted {tutor.reset()} record(s) from {tutor.path}")
        return
    _, broken = judge().problem_set.load()
    for b in broken:
        click.echo(f"warning: {b.id} is not counted: {b.error}", err=True)
    seen = tutor.overview()
    if as_json:
        click.echo(json.dumps(seen.to_json(), indent=2))
    else:
        for line in seen.lines(tags=tags):
            click.echo(line)
