"""The listing index: what `judge list` shows of each problem, kept on disk.

A listing read every problem's YAML through the problem model, which imports
yaml, numpy and click's command tree, many times Python's own start. The index keeps
what the listing shows (id, title, difficulty, tags, framework; the problems
that do not load, with why) beside the expected-value cache, keyed by the
names, sizes and times of the set's files and of the judge's own code, so any
edit rebuilds it through the full path. Statuses are read from the progress
database on every listing. A hit imports only the standard library and the
judge's light modules; anything `try_list` does not handle goes to the CLI.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

from judge.model import layout, locate
from judge.base.errors import ConfigError

NAME = "listing-index.json"
FORMAT = 2  # 2: in course order, with `extra`
_CHOICES = {"--difficulty": ("easy", "medium", "hard"), "--status": ("solved", "attempted", "new")}
_JUDGE = Path(__file__).resolve().parent.parent  # the judge package: its code is part of the key


def try_list(argv: list[str]) -> int | None:
    """Run `judge list [--json] [--tag T]... [--difficulty D] [--status S]` from the index; None for
    any other command line (the CLI then runs it, and says what is wrong with it)."""
    options = _parse_options(argv)
    if options is None:
        return None
    try:
        source = locate.primary()
        packs = () if source.origin in locate.EXPLICIT else locate.packs(
            exclude=(source.root,), working_copy=source.root if source.origin == "working directory" else None)
        items, broken = entries(source, packs)
    except ConfigError:  # no set, or an id in two sets: the CLI says so
        return None
    from judge.learner.tutor import Tutor  # standard library only, as the rest of this path

    statuses, warning = Tutor(None).statuses([item["id"] for item in items])
    for problem_id, error in broken:  # one broken file must not hide the others
        print(f"warning: {problem_id} is not listed: {error}", file=sys.stderr)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    shown = [{**{k: v for k, v in item.items() if k not in ("pack", "extra")}, "status": statuses[item["id"]].value,
              "pack": item["pack"], "extra": item["extra"]} for item in items]  # the CLI's order of keys
    shown = [item for item in shown if all(t in item["tags"] for t in options["tags"])
             and options["difficulty"] in (None, item["difficulty"]) and options["status"] in (None, item["status"])]
    try:
        if options["json"]:
            print(json.dumps(shown, indent=2))
        elif not shown:
            print("no problem matches")
        else:
            from judge.render.listing import listing_lines
            from judge.render.segments import to_text
            from judge.render.terminal import terminal_width, use_colour

            print(to_text(listing_lines(shown, min(100, terminal_width())), use_colour(sys.stdout)))
        sys.stdout.flush()
    except BrokenPipeError:  # `judge list | head`: as click does, exit 1 without a traceback
        sys.stdout = open(os.devnull, "w")
        return 1
    return 0


def _parse_options(argv: list[str]) -> dict | None:
    if not argv or argv[0] != "list":
        return None
    options: dict = {"json": False, "tags": [], "difficulty": None, "status": None}
    rest = list(argv[1:])
    while rest:
        flag = rest.pop(0)
        name, _, value = flag.partition("=")
        if flag == "--json":
            options["json"] = True
            continue
        if name not in ("--tag", *_CHOICES):
            return None
        if not value:
            if not rest:
                return None
            value = rest.pop(0)
        if name == "--tag":
            if value.startswith("unit-"):
                return None  # a unit's tag means the unit's own list, read from its file: the CLI's
            options["tags"].append(value)
        elif value in _CHOICES[name] and options[name[2:]] is None:
            options[name[2:]] = value
        else:
            return None  # an invalid or repeated choice: the CLI's message
    return options


def entries(source: locate.Source, packs: tuple[locate.Source, ...] = ()) -> tuple[list[dict], list[tuple[str, str]]]:
    """Every problem that loads as a listing item (without its status), in course order, and the broken
    ones with the first line of what is wrong: from the index when it is current, else rebuilt."""
    from judge.model.cache import default_directory

    directory = default_directory()
    key = _index_key([source, *packs])
    path = directory / NAME if directory is not None else None
    kept = _read_index(path, key) if path is not None else None
    if kept is not None:
        return kept
    from judge.model.problemset import ProblemSet
    from judge.learner.tutor import Tutor

    tutor = Tutor(ProblemSet(source.root, None, packs, source.origin))
    listing, extras = tutor.listing(), tutor.extras()
    items = [{**{k: v for k, v in entry.to_json().items() if k != "status"}, "extra": entry.problem.id in extras}
             for entry in listing.entries]
    pairs = [(b.id, b.error) for b in listing.broken]
    if path is not None:
        _write_index(path, {"format": FORMAT, "key": key, "items": items, "broken": pairs})
    return items, pairs


def _index_key(sources: list[locate.Source]) -> str:
    """A digest of the problem sets' files and the judge's code, with where they are."""
    digest = hashlib.sha256(repr([(s.name, str(s.root.resolve()), s.origin) for s in sources]).encode())
    tops = [s.root / top for s in sources for top in ("problems", "hidden_tests", "units")]
    for top in (*tops, _JUDGE):
        digest.update(repr(layout.stamp(top)).encode())
    return digest.hexdigest()


def _read_index(path: Path, key: str) -> tuple[list[dict], list[tuple[str, str]]] | None:
    """The index's entries when it is this key's and well formed; None otherwise (rebuilt)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if type(data) is not dict or data.get("format") != FORMAT or data.get("key") != key:
        return None
    items, broken = data.get("items"), data.get("broken")
    fields = {"id": str, "title": str, "difficulty": str, "framework": str, "pack": str}
    if type(items) is not list or type(broken) is not list:
        return None
    for item in items:
        if type(item) is not dict or set(item) != {*fields, "tags", "extra"} or type(item["extra"]) is not bool \
                or not all(type(item[k]) is t for k, t in fields.items()) \
                or type(item["tags"]) is not list or not all(type(t) is str for t in item["tags"]):
            return None
    if not all(type(b) is list and len(b) == 2 and all(type(x) is str for x in b) for b in broken):
        return None
    return items, [(b[0], b[1]) for b in broken]


def _write_index(path: Path, data: dict) -> None:
    """Atomically, or not at all: a listing never fails for its index."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".listing-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            json.dump(data, stream)
        os.replace(temporary, path)
    except OSError:
        pass
