"""How a problem's files fit the problem set, for `judge validate`'s schema aspect.

Folders under hidden_tests/ or submissions/ that belong to no problem, `unit-ID`
tags that name no unit or a unit that does not list the problem, and, for a
public file too broken to load, the stub of it (its args, rule ids, memory)
that its hidden file is still checked against, so every error shows at once.
"""
from __future__ import annotations

from pathlib import Path

from judge.authoring.diagnostics import Diagnostic, ProblemValidation, error, warning
from judge.base.errors import ConfigError
from judge.base.yamlfile import load_yaml
from judge.model import problem as problems
from judge.model.problem import Problem
from judge.runs.contract import Limits


def find_orphans(root: Path, known: set[str]) -> ProblemValidation:
    """hidden_tests/ or submissions/ folders that belong to no problems/<id>.yaml."""
    found = ProblemValidation("(problem set)")
    for area in ("hidden_tests", "submissions"):
        directory = root / area
        if not directory.is_dir():
            continue
        for child in sorted(directory.iterdir()):
            if child.is_dir() and child.name not in known and not child.name.startswith((".", "_")):
                found.diagnostics.append(error(f"{child.name}.schema", f"{area}/{child.name}/ belongs to no problem: "
                                               f"problems/{child.name}.yaml does not exist"))
    return found


def check_unit_tags(problem: Problem) -> list[Diagnostic]:
    """A tag `unit-ID` promises the problem is in unit ID: warn where the unit does not list it.

    The unit's lists decide membership (what `judge unit` and progress count); a tag saying
    otherwise misleads whoever filters by it.
    """
    from judge.learner.units import load_unit, unit_ids

    found: list[Diagnostic] = []
    tagged = [t[len("unit-"):] for t in problem.tags if t.startswith("unit-")]
    known = unit_ids(problem.root) if tagged else []
    for unit_id in tagged:
        if unit_id not in known:
            found.append(warning(f"{problem.id}.schema", f"problems/{problem.id}.yaml: tag 'unit-{unit_id}' names "
                                 f"no unit (units/{unit_id}.yaml does not exist)"))
            continue
        try:
            unit = load_unit(problem.root, unit_id)
        except ConfigError:
            continue  # a broken unit file is reported where units are loaded, not as this problem's
        if problem.id not in (*unit.problems, *unit.extras):
            found.append(warning(f"{problem.id}.schema", f"problems/{problem.id}.yaml: tag 'unit-{unit_id}' but "
                                 f"units/{unit_id}.yaml does not list {problem.id!r} in problems or extras; "
                                 "add it there or drop the tag"))
    return found


def stub_problem(root: Path, problem_id: str) -> Problem | None:
    """Enough of a broken public file (its args, rule ids, memory) to check the hidden file against."""
    path = root / "problems" / f"{problem_id}.yaml"
    try:
        data = load_yaml(path)
    except ConfigError:
        return None
    args = data.get("args") if isinstance(data, dict) else None
    if not (isinstance(args, list) and args and all(isinstance(a, str) and a.isidentifier() for a in args)):
        return None
    framework = data.get("framework") if data.get("framework") in problems.FRAMEWORKS else "torch"
    rules = tuple(problems.Rule(id=r["id"], text="") for r in data.get("rules") or ()
                  if isinstance(r, dict) and isinstance(r.get("id"), str)) if problems.rules_readable(data) else ()
    memory = (data.get("limits") or {}).get("memory_mb") if isinstance(data.get("limits"), dict) else None
    limits = Limits(memory_mb=memory) if type(memory) is int and memory > 0 else Limits()
    return Problem(id=problem_id, title="", difficulty="", tags=(), framework=framework,
                   entry_point=str(data.get("entry_point") or problem_id), args=tuple(args), signature="",
                   statement="", starter="", hints=(), examples=(), limits=limits, path=path, root=root,
                   rules=rules)
