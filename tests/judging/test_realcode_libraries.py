"""Learners' libraries and idioms in the real-code corpus, cold and warm.

Learners' venvs hold einops, timm, open_clip, lightly, scikit-learn, scipy, jaxtyping and pydantic,
and their solutions use them as those projects' own code does; they also print and log tensors,
annotate with typing's aliases, write dataclasses under `from __future__ import annotations`,
check themselves with torch.testing, batch with torch.func and import torch in numpy problems.
USES names the corpus files (tests/realcode) that do each. test_realcode.py judges every corpus
file through a Judge session; here each of these is judged again as a learner's commands judge
it: cold, `judge run ID FILE --json` in a fresh process with no warm server and an empty cache
of expected values, and warm, by the warm server `judge serve` runs (WarmServer, in-process).
Both must accept it with the same verdict on every test. A file whose library needs torchvision
skips where torchvision is unusable, as in test_realcode.py.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from judge.judging.session import Judge
from judge.warm import protocol
from judge.warm.server import WarmServer
from test_realcode import CORPUS, REPO, Entry, entry, skip_reason

# Corpus file (problem/folder/stem) -> the libraries and idioms it exercises.
USES: dict[str, tuple[str, ...]] = {
    "patchify/correct/einops_rearrange": ("einops", "einops.rearrange"),
    "unpatchify/correct/einops_rearrange": ("einops", "einops.rearrange"),
    "patch_embed/correct/einops_rearrange_layer": ("einops", "einops.layers.torch.Rearrange"),
    "patch_embed/correct/timm_layers_patch_embed": ("timm", "torch.func"),
    "clip_loss/correct/open_clip_loss_module": ("open_clip",),
    "nt_xent/correct/lightly_loss_module": ("lightly",),
    "linear_probe/correct/sklearn_estimators": ("scikit-learn",),
    "info_nce/correct/scipy_logsumexp": ("scipy",),
    "patch_embed/correct/jaxtyping_conv2d": ("jaxtyping",),
    "vit_cost/correct/pydantic_config": ("pydantic", "typing aliases"),
    "vit_pool/correct/typing_aliases": ("typing aliases", "typing.Generic"),
    "vit_pool/correct/enum_pool_mode": ("enum",),
    "self_attention/correct/future_annotations_dataclass": ("from __future__ import annotations + @dataclass",),
    "siglip_loss/correct/logging_logits": ("logging a tensor",),
    "collapse_std/correct/print_and_fstrings": ("print(tensor)", "f-strings of tensors"),
    "unpatchify/correct/assert_close_round_trip": ("torch.testing.assert_close",),
    "pos_embed/correct/vmap_per_sample": ("torch.func", "torch.func.vmap"),
    # Numpy problems (framework: numpy) solved with torch, imported by the submission itself.
    "info_nce/correct/torch_cross_entropy": ("import torch in a numpy problem",),
    "linear_probe/correct/torch_linalg_solve": ("import torch in a numpy problem",),
    "vit_cost/correct/torch_meta_conv_grid": ("import torch in a numpy problem",),
    "sinusoidal_positions/correct/torch_tutorial_float64": ("import torch in a numpy problem",),
    "sincos_2d_positions/correct/torch_simple_vit": ("import torch in a numpy problem",),
}
# What the corpus covers: every library in the test and vision extras, every idiom.
REQUIRED = {
    "einops", "einops.rearrange", "einops.layers.torch.Rearrange", "timm", "open_clip", "lightly",
    "scikit-learn", "scipy", "jaxtyping", "pydantic", "typing aliases", "typing.Generic", "enum",
    "from __future__ import annotations + @dataclass", "logging a tensor", "print(tensor)",
    "f-strings of tensors", "torch.testing.assert_close", "torch.func.vmap", "import torch in a numpy problem",
}
NUMPY_PROBLEMS = {"info_nce", "linear_probe", "vit_cost", "sinusoidal_positions", "sincos_2d_positions"}


def items() -> list[Entry]:
    return [entry(CORPUS / f"{key}.py") for key in USES]


def test_the_files_cover_every_library_and_idiom_and_are_accepted_files_of_the_corpus() -> None:
    covered = {use for uses in USES.values() for use in uses}
    assert REQUIRED <= covered, sorted(REQUIRED - covered)
    for item in items():
        assert item.path.is_file(), item.key
        assert item.expect == "accepted" and item.source, f"{item.key}: declares expect: accepted and its source"
    numpy_files = {key.split("/")[0] for key, uses in USES.items() if "import torch in a numpy problem" in uses}
    assert numpy_files == NUMPY_PROBLEMS
    for problem in NUMPY_PROBLEMS:  # the problems really are numpy ones, so torch is the submission's own import
        assert "framework: numpy" in (REPO / "problems" / f"{problem}.yaml").read_text()


def outcome(report: dict) -> tuple[str, list[tuple[str, str]]]:
    """What must not depend on how the file was judged: the verdict and every test's."""
    return report["verdict"], [(t["name"], t["verdict"]) for t in report["tests"]]


def failure(report: dict) -> str:
    first = next((t for t in report["tests"] if t["verdict"] != "accepted"), None)
    return f"{report['verdict']}" + (f"; first failure {first['name']}: {first['message']}" if first else "")


@pytest.fixture(scope="module")
def cold_env(tmp_path_factory) -> dict[str, str]:
    """`judge run` as a learner's shell runs it with nothing kept: no warm server, nothing recorded,
    expected values computed afresh (one empty cache for the module: each problem once)."""
    return {**os.environ, "JUDGE_NO_WARM": "1", "JUDGE_NO_RECORD": "1",
            "JUDGE_CACHE_DIR": str(tmp_path_factory.mktemp("cold_cache")), "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def warm_server():
    """The warm server `judge serve` runs, answering in this process (its socket is not needed)."""
    with Judge(REPO, record=False, ahead=True) as judge:
        judge.warm()  # as judge serve does: the fork server is up before the first run
        yield WarmServer(judge, threading.Lock())


def cold(item: Entry, env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-m", "judge", "run", item.problem, str(item.path), "--json"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
    assert done.returncode in (0, 1), f"{item.key}: judge run exited {done.returncode}: {done.stderr[-2000:]}"
    report = json.loads(done.stdout)
    assert done.returncode == (0 if report["verdict"] == "accepted" else 1)
    return report


def warm(item: Entry, server: WarmServer) -> dict:
    request = {"fingerprint": server.fingerprint, "context": protocol.context(str(REPO), str(REPO)),
               "problem": item.problem, "label": str(item.path.relative_to(REPO)), "origin": str(item.path),
               "data": item.path.read_bytes(), "json": True}
    answer = server.answer(request)
    assert "fallback" not in answer, f"{item.key}: the warm server did not judge it: {answer}"
    report = json.loads(answer["stdout"])
    assert answer["code"] == (0 if report["verdict"] == "accepted" else 1)
    return report


@pytest.mark.parametrize("item", items(), ids=lambda e: e.key)
def test_a_learners_library_or_idiom_is_accepted_cold_and_warm_alike(item: Entry, cold_env, warm_server) -> None:
    reason = skip_reason(item)
    if reason:
        pytest.skip(reason)
    cold_report, warm_report = cold(item, cold_env), warm(item, warm_server)
    assert cold_report["verdict"] == "accepted", f"{item.key} cold: {failure(cold_report)}"
    assert warm_report["verdict"] == "accepted", f"{item.key} warm: {failure(warm_report)}"
    assert outcome(cold_report) == outcome(warm_report), item.key
    # Honest code is never flagged as tampering (the report's `tampering` list; absent before it existed).
    assert cold_report.get("tampering", []) == [] and warm_report.get("tampering", []) == [], item.key
