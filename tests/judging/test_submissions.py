"""Every known submission of every problem gets the verdict its folder promises.

Submissions are discovered when pytest collects this file, so a problem added
to problems/ (with its submissions/<id>/<folder>/*.py) is covered without
touching this file. For the shipped problems' wrong answers the first failing
test must also name the mistake the file makes.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.base.outcomes import Verdict, folder_names, folder_verdict

REPO = Path(__file__).resolve().parents[2]

# Wrong answers: a phrase the first failing test's message must contain (the mistake, named).
PATCHIFY_DIAGNOSES = {
    "batch_mixing.py": "mixed across the batch",
    "channels_last_flatten.py": "(ph, pw, C)",
    "column_major.py": "column-major",
    "detached_numpy.py": "not connected to the autograd graph",
    "modifies_input.py": "in place",
    "overlapping.py": "overlap",
    "reshape_without_permute.py": "without a permute",
    "silent_cropping.py": "cropping",
    "swapped_height_width.py": "H and W are swapped",
    "swapped_patch_sizes.py": "patch_height and patch_width are swapped",
    "xy_coordinates.py": "coordinates are (x, y)",
}
DIAGNOSES = {
    "patchify": PATCHIFY_DIAGNOSES,
    "clip_loss": {
        "accuracies_swapped.py": "the two accuracies are swapped",
        "computed_in_numpy.py": "not connected to the autograd graph",
        "directions_summed.py": "added but not averaged",
        "label_smoothing.py": "label smoothing",
        "labels_not_arange.py": "not torch.arange(N)",
        "naive_exp.py": "plain exp overflows",
        "no_normalisation.py": "not L2-normalised",
        "normalise_in_place.py": "modified in place",
        "one_direction.py": "one-directional",
        "sigmoid_loss.py": "SigLIP",
        "sum_not_mean.py": "summed over the batch",
        "text_softmax_wrong_axis.py": "same axis as the image direction",
        "times_temperature.py": "multiplied by the temperature",
        "unstable_sort_ties.py": "stable=True",
    },
    "info_nce": {
        "drop_unpaired_row.py": "dropped silently",
        "masked_by_value.py": "masked by value",
        "naive_exp.py": "overflows",
        "negatives_other_view_only.py": "other view",
        "no_normalisation.py": "not L2-normalised",
        "pairs_i_plus_n.py": "(i, i + N)",
        "positive_not_in_denominator.py": "positive was removed from the denominator",
        "self_in_denominator.py": "self-similarity is in the denominator",
        "sum_not_mean.py": "summed",
    },
    "pos_embed": {
        "batch_mixing.py": "mixed across the batch",
        "cls_appended.py": "appended at the end",
        "cls_without_position.py": "class token has no position",
        "detached_parameters.py": "no gradient reaches `cls_token`",
        "in_place_add.py": "modified in place",
        "positions_before_prepend.py": "off by one",
        "sinusoidal_positions.py": "sinusoidal",
    },
    "unpatchify": {
        "channels_last_unflatten.py": "(ph, pw, C)",
        "column_major.py": "column-major",
        "detached_numpy.py": "not connected to the autograd graph",
        "reshape_without_permute.py": "without a permute",
        "swapped_patch_axes.py": "swapped",
        "unchecked_token_count.py": "raise ValueError instead of guessing",
    },
}


def _problem_ids() -> list[str]:
    return sorted(p.stem for p in (REPO / "problems").glob("*.yaml"))


def _submissions() -> list:
    params = []
    for problem_id in _problem_ids():
        root = REPO / "submissions" / problem_id
        for path in sorted(root.glob("*/*.py")):
            params.append(pytest.param(problem_id, path, id=f"{problem_id}/{path.parent.name}/{path.name}"))
    return params


SUBMISSIONS = _submissions()


@pytest.fixture(scope="module")
def judged(judge):
    """Reports by path, so a submission is judged once per module."""
    reports: dict[Path, object] = {}

    def run(problem_id: str, path: Path):
        if path not in reports:
            reports[path] = judge.run(problem_id, path)
        return reports[path]

    return run


def _failures(report) -> str:
    lines = [f"{t.name} [{t.group}] {t.verdict.value}: {t.text}"
             for t in report.tests if t.verdict.value != "accepted"]
    return "\n".join(lines) or "(no failing test)"


@pytest.mark.parametrize("problem_id, path", SUBMISSIONS)
def test_known_submission_gets_its_verdict(judged, problem_id: str, path: Path) -> None:
    folder = path.parent.name
    expected = folder_verdict(folder)   # the one rule validate uses (judge.base.outcomes)
    assert expected is not None, (
        f"{path.relative_to(REPO)}: unknown folder {folder!r}; expected one of {', '.join(folder_names())}")
    report = judged(problem_id, path)
    assert report.verdict is expected, (
        f"{path.relative_to(REPO)}: expected {expected}, got {report.verdict.value} "
        f"({report.passed}/{report.total} passed); failing tests:\n{_failures(report)}")
    if expected is not Verdict.ACCEPTED:
        assert report.first_failure is not None and report.first_failure.text, "a failure must say why"
    if problem_id in DIAGNOSES and expected is Verdict.WRONG_ANSWER:
        keyword = DIAGNOSES[problem_id].get(path.name)
        assert keyword is not None, f"add {path.name} and its diagnostic phrase to DIAGNOSES[{problem_id!r}]"
        # The first failing test names the mistake; where two mistakes give the same output on it (the
        # judge then names neither), the first test that names one must name this one.
        failing = [t for t in report.tests if t.verdict is not Verdict.ACCEPTED]
        first = next((t for t in failing if t.mistake is not None), report.first_failure)
        assert keyword in first.text, (
            f"{path.name}: the first failing test {first.name!r} should name the mistake ({keyword!r}); "
            f"its message is:\n{first.text}")


@pytest.mark.parametrize("problem_id, path", SUBMISSIONS)
def test_known_submissions_report_round_trips_through_json(judged, problem_id: str, path: Path) -> None:
    """What the service stores and a remote backend sends back reads back as the same report."""
    from dataclasses import replace

    from judge.base.report import Report

    report = judged(problem_id, path)
    data = json.loads(report.dumps())
    again = Report.from_json(data)
    assert again.to_json() == data
    # The same report, less what JSON never carries (example values, the smallest input's values: its text
    # is carried) and times rounded to 0.1 ms.
    assert again.tests == [replace(t, shown=None, smallest=None, time_ms=round(t.time_ms, 1)) for t in report.tests]
    assert (again.problem, again.submission, again.output, again.warnings) == \
        (report.problem, report.submission, report.output, report.warnings)


@pytest.mark.parametrize("problem_id", _problem_ids())
def test_every_problem_has_an_accepted_submission(problem_id: str) -> None:
    accepted = sorted((REPO / "submissions" / problem_id / "accepted").glob("*.py"))
    assert accepted, f"submissions/{problem_id}/accepted/ holds no known correct solution"


@pytest.mark.parametrize("problem_id", sorted(DIAGNOSES))
def test_every_wrong_answer_has_its_diagnosis(problem_id: str) -> None:
    present = {p.name for p in (REPO / "submissions" / problem_id / "wrong_answer").glob("*.py")}
    assert present == set(DIAGNOSES[problem_id])


def test_patchify_diagnoses_are_distinct(judged) -> None:
    """Each wrong answer is diagnosed as its own mistake, not as another file's."""
    root = REPO / "submissions" / "patchify" / "wrong_answer"
    for name, keyword in PATCHIFY_DIAGNOSES.items():
        others = [k for n, k in PATCHIFY_DIAGNOSES.items() if n != name and k not in keyword]
        message = judged("patchify", root / name).first_failure.text
        wrong = [k for k in others if k in message]
        assert not wrong, f"{name} is also diagnosed as {wrong}: {message}"
