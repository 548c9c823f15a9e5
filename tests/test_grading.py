"""Grading as the web page sees it: each test's result is handed over as soon as it is decided."""
from __future__ import annotations

import time

# Sleeps only on the batch_of_five hidden test (5 images), so results before it are decided early.
SLOW_LATE = '''
import time
import torch


def patchify(images, patch_height, patch_width):
    if images.ndim == 4 and images.shape[0] == 5:
        time.sleep(1.0)
    if images.ndim != 4 or not (isinstance(patch_height, int) and isinstance(patch_width, int)) \\
            or patch_height <= 0 or patch_width <= 0 or images.shape[2] % patch_height or images.shape[3] % patch_width:
        raise ValueError("bad input")
    b, c, h, w = images.shape
    gh, gw = h // patch_height, w // patch_width
    x = images.reshape(b, c, gh, patch_height, gw, patch_width).permute(0, 2, 4, 1, 3, 5)
    rows, cols = torch.meshgrid(torch.arange(gh), torch.arange(gw), indexing="ij")
    return {"tokens": x.reshape(b, gh * gw, c * patch_height * patch_width),
            "coordinates": torch.stack([rows.flatten(), cols.flatten()], 1)}
'''


def test_results_arrive_in_order_as_each_test_is_decided(judge):
    problem = judge.problem("patchify")
    arrived: list[tuple[float, str]] = []
    started = time.monotonic()
    report = judge.run_source(problem, SLOW_LATE, "slow.py", on_result=lambda t: arrived.append((time.monotonic(), t.name)))
    finished = time.monotonic()
    assert report.accepted, report.first_failure
    assert [name for _, name in arrived] == [t.name for t in report.tests]  # every test, in report order
    slow = [name for _, name in arrived].index("batch_of_five")
    before_slow = arrived[slow - 1][0]
    # The tests before the slow one were handed over about a second before the run ended.
    assert finished - before_slow > 0.8, (before_slow - started, finished - started)


def test_without_a_listener_the_report_is_the_same(judge):
    problem = judge.problem("patchify")
    streamed = judge.run_source(problem, SLOW_LATE.replace("time.sleep(1.0)", "pass"), "a.py", on_result=lambda t: None)
    plain = judge.run_source(problem, SLOW_LATE.replace("time.sleep(1.0)", "pass"), "a.py")
    assert [(t.name, t.verdict, t.message) for t in streamed.tests] == [(t.name, t.verdict, t.message) for t in plain.tests]
