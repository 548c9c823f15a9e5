"""Each known wrong answer of patch_embed, vit_cost, sinusoidal_positions, sincos_2d_positions and
resize_pos_embed is told its own mistake: some failing test's message (a trap's message, a check's
message, a relation's or a change of the file's, or the test's hint) contains the phrase below.
(Verdicts are asserted by test_submissions.) A float32 step fails every float64 test alike: the
judge names it itself ("float32 where float64 belongs"), so no hint needs to say it."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

DIAGNOSES = {
    "patch_embed": {
        "bias_ignored.py": "the bias is ignored",
        "broadcastable_bias.py": "a (1,) bias would broadcast",
        "channels_first_output.py": "left as (B, D, N)",
        "column_major_grid.py": "column-major grid order",
        "detached_numpy.py": "not connected to the autograd graph",
        "early_return_without_bias.py": "has shape (2, 5, 2, 3); expected (2, 6, 5)",
        "float32_internals.py": "float64",
        "fresh_conv.py": "freshly created nn.Conv2d",
        "hard_coded_patch_16.py": "has shape (2, 1, 3); expected (2, 8, 3)",
        "reshaped_not_transposed.py": "reshaped to (B, N, D) instead of transposed",
        "same_padding.py": "pads the image",
        "silent_cropping.py": "instead of cropping",
        "stride_one.py": "stride 1",
        "unchecked_rank.py": "unbatched (C, H, W) image",
        "weight_flattened_hwc.py": "weight was flattened in (ph, pw, C) order",
    },
    "vit_cost": {
        "area_divisibility.py": "each side must be divisible",
        "area_over_patch_side.py": "divides the image area by one side",
        "attention_linear.py": "linear in the tokens",
        "attention_scores_only.py": "counts only the scores",
        "cost_per_head.py": "cost of one head",
        "early_return_square.py": "rejects_patch_not_dividing",
        "float_counts.py": "the counts are floats",
        "hard_coded_rgb.py": "`patch_dim`",
        "mlp_without_expansion.py": "`mlp_macs`",
        "no_class_token.py": "class token is missing",
        "numpy_integers.py": "numpy integers",
        "sides_swapped.py": "height and width are swapped",
    },
    "sinusoidal_positions": {
        "base_unchecked.py": "rejects_zero_base",
        "exponent_i_over_dim.py": "exponent is i/dim",
        "float32_angles.py": "float32 where float64 belongs",
        "float32_table.py": "dtype float32",  # the trap, or the generic relation where its float32 angles differ
        "halves.py": "sines and cosines are in two halves",
        "hard_coded_base.py": "not a hard-coded 10000",
        "odd_dim_trimmed.py": "rejects_odd_dim",
        "positions_from_one.py": "positions start at 1",
        "sin_cos_swapped.py": "sin and cos are swapped",
        "tensor2tensor_timing_signal.py": "tensor2tensor's get_timing_signal_1d",
        "timescales_over_half_minus_one.py": "step by log(base) / (dim/2 - 1)",
    },
    "sincos_2d_positions": {
        "class_row_at_origin.py": "the class row is not zero",
        "class_row_missing.py": "the class token's row is missing",
        "column_major_tokens.py": "tokens are in column-major order",
        "even_dim_only.py": "a multiple of 4",
        "float32_grid.py": "dtype float32; expected float64",
        "interleaved_1d.py": "interleaves sin and cos",
        "omega_i_over_d.py": "omega uses i / d",
        "rescaled_to_base_grid.py": "rescaled to a base grid of 16",
        "row_half_first.py": "row and column halves are swapped",
        "square_grid_assumed.py": "has shape (9, 8); expected (15, 8)",
    },
    "resize_pos_embed": {
        "align_corners.py": "align_corners=True was used",
        "antialias.py": "antialias=True was used",
        "bilinear.py": "bilinear interpolation was used",
        "class_row_dropped.py": "the class row is missing",
        "class_row_in_grid.py": "row was read into the grid",
        "class_row_last.py": "moved to the end",
        "column_major_grid.py": "read (and written) column-major",
        "detached.py": "not connected to the autograd graph",
        "early_return_same_height.py": "has shape (1, 25, 8); expected (1, 37, 8)",
        "float32_internals.py": "float64",
        "grid_along_tokens.py": "grid was interpolated along the token axis",
        "grid_read_as_gw_gh.py": "reshaped as (gw, gh)",
        "same_count_shortcut.py": "the number of grid cells is the same",
        "nearest.py": "nearest-neighbour interpolation was used",
        "squeezed_in_place.py": "reshaped or transposed in place",
        "unchecked_length.py": "the table has 1 + gh * gw rows",
        "whole_sequence_along_tokens.py": "class row included",
    },
}

CASES = [pytest.param(pid, name, phrase, id=f"{pid}/{name}")
         for pid, files in DIAGNOSES.items() for name, phrase in files.items()]


@pytest.mark.parametrize("problem_id", DIAGNOSES)
def test_every_wrong_answer_has_a_diagnosis(problem_id: str) -> None:
    present = {p.name for p in (REPO / "submissions" / problem_id / "wrong_answer").glob("*.py")}
    assert present == set(DIAGNOSES[problem_id])


@pytest.mark.parametrize("problem_id, name, phrase", CASES)
def test_wrong_answer_is_told_its_mistake(judge, problem_id: str, name: str, phrase: str) -> None:
    report = judge.run(problem_id, REPO / "submissions" / problem_id / "wrong_answer" / name)
    failing = [t for t in report.tests if t.verdict.value != "accepted"]
    said = [f"{t.name}: {t.text}" for t in failing]
    assert any(phrase in line for line in said), f"{name}: no failing test says {phrase!r}:\n" + "\n".join(said)
