"""judge/judging/mutants.py: the operators make the mistakes tensor code makes, one at a time, deterministically."""
from __future__ import annotations

import ast
from pathlib import Path

from judge.judging.mutants import OPERATORS, Context, mutants, operator_names

SOURCE = '''"""A docstring is never mutated."""
import torch
import torch.nn.functional as F


def loss(x, y, temperature=0.5):
    if x.dim() != 2 or y.dim() != 2:
        raise ValueError(f"x must be 2-D, got {x.dim()} dims")
    z = F.normalize(x, dim=1, eps=1e-12)
    s = z @ y.T / temperature
    top = s.max(dim=1, keepdim=True).values
    s = s - top
    out = s.permute(1, 0).reshape(2, 3)
    return torch.sin(out[1:]).sum(dim=0).detach()
'''


def made(**kwargs) -> list:
    return mutants(SOURCE, Context(framework="torch", array_args=(0, 1), entry_point="loss"), **kwargs)


def afters(operator: str) -> set[str]:
    return {m.after for m in made(operators=[operator])}


def test_every_mutant_compiles_differs_and_is_made_once():
    found = made()
    sources = [m.source for m in found]
    assert len(sources) == len(set(sources))
    for m in found:
        assert ast.unparse(ast.parse(m.source)) != ast.unparse(ast.parse(SOURCE))
        compile(m.source, "mutant.py", "exec")
    assert {m.operator for m in found} <= set(operator_names())


def test_the_same_source_gives_the_same_mutants():
    assert [(m.operator, m.line, m.after) for m in made()] == [(m.operator, m.line, m.after) for m in made()]


def test_axes_move_and_reductions_go_global():
    found = afters("axis")
    assert "F.normalize(x, dim=2, eps=1e-12)" in found and "F.normalize(x, dim=0, eps=1e-12)" in found
    assert "s.max(keepdim=True)" in found            # the log-sum-exp shift by the global maximum
    assert "s.max(dim=1)" in found                   # keepdim dropped


def test_transposes_and_permutes():
    assert "y" in afters("transpose")                 # `.T` dropped
    assert "s.permute(0, 1)" in afters("transpose")   # two axes swapped
    assert "s" in afters("transpose")                 # the permute dropped
    assert "s.permute(1, 0).reshape(3, 2)" in afters("reshape")


def test_temperature_shift_trig_gradient_dtype_and_slices():
    arithmetic = afters("arithmetic")
    assert "z @ y.T * temperature" in arithmetic and "z @ y.T" in arithmetic   # inverted, dropped
    assert "s" in arithmetic                                                    # the shift dropped
    assert "torch.cos(out[1:])" in afters("reduce")
    assert "torch.sin(out[1:]).mean(dim=0)" in afters("reduce")
    assert "torch.sin(out[1:]).sum(dim=0)" in afters("gradient")                # detach removed
    assert {"out[2:]", "out[0:]"} & afters("index")
    assert "temperature=5.0" in " ".join(afters("defaults"))


def test_validation_checks_removed_or_weakened():
    found = afters("guard")
    assert "pass" in found                                                     # the check removed
    assert "if y.dim() != 2: ..." in found and "if x.dim() != 2: ..." in found  # one condition dropped
    assert "if x.dim() != 2 and y.dim() != 2: ..." in found                    # or -> and
    assert {"x.dim() < 2", "x.dim() > 2"} <= afters("comparison")


def test_entry_arguments_detached_or_written_in_place():
    found = " ".join(afters("entry"))
    assert "x = x.detach()" in found and "y.detach().mul_(1)" in found
    numpy = mutants(SOURCE, Context(framework="numpy", array_args=(0, 1), entry_point="loss"), operators=["entry"])
    assert numpy == []   # no tensors, no autograd: nothing to detach


def test_messages_docstrings_and_annotations_are_not_behaviour():
    for m in made():
        assert "A docstring is never mutated." in m.source
        assert "must be 2-D, got {x.dim()} dims" in m.source or m.after == "pass"   # only with its check


def test_labels_say_where_and_what():
    m = made(operators=["arithmetic"])[0]
    assert m.label.startswith(f"line {m.line}: ") and "(arithmetic)" in m.label
    assert set(m.to_json()) == {"operator", "line", "before", "after"}


def test_every_operator_has_a_docstring_and_shipped_solutions_mutate(repo: Path):
    assert all(o.doc for o in OPERATORS)
    source = (repo / "hidden_tests" / "pos_embed" / "reference.py").read_text()
    found = mutants(source, Context(framework="torch", array_args=(0, 1, 2), entry_point="add_cls_and_pos_embed"))
    assert len(found) > 20 and {"guard", "comparison", "entry", "axis"} <= {m.operator for m in found}
