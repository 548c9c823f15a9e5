"""`judge list`'s filters as the library applies them: a unit's order, a unit's tag, every tag, difficulty,
status, and the extras marked."""
from __future__ import annotations

from judge.learner.listing import select_problems

UNIT = "5.5"


def ids(items: list[dict]) -> list[str]:
    return [item["id"] for item in items]


def test_without_filters_every_problem_is_listed_in_course_order(judge):
    listing = judge.tutor.listing()
    items = select_problems(judge.tutor, listing.entries)
    assert ids(items) == [e.problem.id for e in listing.entries]
    assert all(set(item) == {*e.to_json(), "extra"} for item, e in zip(items, listing.entries))


def test_a_unit_keeps_its_own_problems_in_its_order_with_its_extras_marked(judge):
    unit = judge.tutor.unit(UNIT)
    items = select_problems(judge.tutor, judge.tutor.listing().entries, unit=unit)
    assert ids(items) == [*unit.problems, *unit.extras]
    assert [item["id"] for item in items if item["extra"]] == list(unit.extras)


def test_a_units_tag_means_its_list_and_every_tag_must_hold(judge):
    unit = judge.tutor.unit(UNIT)
    entries = judge.tutor.listing().entries
    tagged = select_problems(judge.tutor, entries, tags=(f"unit-{UNIT}",))
    assert set(ids(tagged)) == {*unit.problems, *unit.extras}
    tag = next(t for e in entries for t in e.problem.tags)
    both = select_problems(judge.tutor, entries, tags=(f"unit-{UNIT}", tag))
    assert ids(both) == [i for i in ids(tagged) if tag in judge.problem(i).tags]
    assert select_problems(judge.tutor, entries, tags=("no-such-tag",)) == []


def test_difficulty_and_status_filter(judge):
    entries = judge.tutor.listing().entries
    easy = select_problems(judge.tutor, entries, difficulty="easy")
    assert easy and {item["difficulty"] for item in easy} == {"easy"}
    assert len(easy) < len(entries)
    new = select_problems(judge.tutor, entries, status="new")
    assert ids(new) == [e.problem.id for e in entries if e.status == "new"]
