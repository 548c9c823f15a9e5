"""The README and docs/ as a reader meets them: short enough to read, every relative link leads somewhere.

The README is the newcomer's page and stays at most 20 KB; the depth lives in docs/, one page a
subject. Every relative link of the README and of docs/ must name a file or folder of this
repository (a clone has nothing outside it), and a `#anchor` into a Markdown page must name one of
its headings as GitHub spells them (lower case, punctuation dropped, spaces as hyphens, `-1`, `-2`
for repeats). Text inside fenced code blocks and code spans is neither a link nor a heading. The
pages say what the code does, never which numbered issue or round brought it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
PAGES = (README, *sorted((REPO / "docs").glob("*.md")))
MAX_README_BYTES = 20_000

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...
NUMBERED = re.compile(r"\b(?:issues?|rounds?|stops?)\s+#?\d+", re.IGNORECASE)


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of every line outside fenced code blocks, code spans blanked."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, CODE_SPAN.sub("code", line)))
    return lines


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")  # a link's text, a code span's text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown page, repeats numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        heading = None if fenced else HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link of the page that is not to another site."""
    links = []
    for number, line in prose_lines(path):
        targets = [m.group(1) for m in INLINE_LINK.finditer(line)]
        reference = REFERENCE_LINK.match(line)
        if reference:
            targets.append(reference.group(1))
        links.extend((number, t) for t in targets if not EXTERNAL.match(t))
    return links


def broken_links(path: Path, root: Path = REPO) -> list[str]:
    """Each relative link of the page that names no file under `root`, or no heading of its page."""
    broken = []
    for number, target in relative_links(path):
        where, _, anchor = target.partition("#")
        page = (path.parent / where).resolve() if where else path
        if not page.is_relative_to(root) or not page.exists():
            broken.append(f"{path.name}:{number}: {target}: no such file in the repository")
        elif anchor and page.suffix == ".md" and anchor not in anchors(page):
            broken.append(f"{path.name}:{number}: {target}: {page.name} has no heading #{anchor}")
    return broken


def test_the_readme_is_at_most_20_kb() -> None:
    size = len(README.read_bytes())
    assert size <= MAX_README_BYTES, f"README.md is {size} bytes; move depth into docs/"


def test_the_quick_start_is_two_commands_in_its_first_sh_block() -> None:
    """CI runs exactly these lines (.ci/quickstart-as-user takes them from the README)."""
    text = README.read_text(encoding="utf-8").split("\n## Quick start\n", 1)[1]
    block = text.split("```sh\n", 1)[1].split("\n```", 1)[0]
    assert len(block.splitlines()) == 2, block


def test_the_readme_leads_with_what_a_newcomer_looks_for_first() -> None:
    """Before its first section: the quick start, the learner's loop, stopping the warm judge and the
    instructor's review page, in that order, each a link into the page."""
    lead = README.read_text(encoding="utf-8").split("\n## ", 1)[0]
    places = [lead.find(s) for s in ("(#quick-start)", "(#the-learners-loop)", "judge serve --stop", "/review")]
    assert -1 not in places and places == sorted(places), places


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(path: Path) -> None:
    assert relative_links(path) or path != README, "the README links to its docs"
    assert broken_links(path) == []


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_page_names_an_issue_or_a_round(path: Path) -> None:
    found = [f"{path.name}:{n}: {m.group(0)}" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in NUMBERED.finditer(line)]
    assert found == [], "say what the code does and why, not which issue or round brought it"


def test_a_broken_link_and_a_missing_anchor_are_found(tmp_path: Path) -> None:
    """The checker itself: a link to nothing, an anchor to no heading, a link out of the repository."""
    page = REPO / "docs" / "architecture.md"
    assert "the-library-api" in anchors(page) and "the-pages-front-end" in anchors(page)
    assert slug("In the browser: `judge serve`") == "in-the-browser-judge-serve"
    assert slug("What a failure names, and the smallest input that shows it") == \
        "what-a-failure-names-and-the-smallest-input-that-shows-it"
    (tmp_path / "outside.md").write_text("# Outside\n")
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "other.md").write_text("# Other\n\n## A part\n")
    bad = root / "docs" / "page.md"
    bad.write_text("# Title\n\n## Same\n\n## Same\n\n[a](other.md#no-such) [b](nowhere.md) [c](../../outside.md)\n"
                   "[d](#same-1) [e](#title) [f](other.md#a-part) `[g](inside_code.md)`\n\n```\n[h](fenced.md)\n```\n"
                   "[i](https://example.org/x.md)\n", encoding="utf-8")
    found = broken_links(bad, root)
    assert len(found) == 3, found
    assert "other.md#no-such" in found[0] and "nowhere.md" in found[1] and "outside.md" in found[2]
