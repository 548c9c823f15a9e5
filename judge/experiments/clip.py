"""CLIP: two linear projectors trained with the learner's `symmetric_clip_loss` on paired modalities.

Images and texts are two modalities of the same content: each has its own
content mixer and its own nuisance (see world.py). Projectors `W_img`
(dim_image -> dim) and `W_txt` (dim_text -> dim); each step:
`loss = symmetric_clip_loss(x_img[batch] W_img, x_txt[batch] W_txt, temperature)["loss"]`.

Scored in the judge on held-out pairs, from the returned projectors:
- `image_to_text`: top-1 retrieval of each image's own text among all texts;
- `text_to_image`: top-1 retrieval of each text's own image among all images.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from judge.experiments import retrieval, training
from judge.experiments.world import draw_run, initial_weights, make_world

SETTINGS = {"dim_image": 32, "dim_text": 24, "dim": 8, "content_dim": 8, "nuisance_dim": 12,
            "nuisance_scale": 2.0, "noise": 0.1, "train": 512, "heldout": 256, "batch": 64, "steps": 100,
            "lr": 0.15, "temperature": 0.1}
FIGURES = {"image_to_text": "held-out top-1 retrieval accuracy, image -> its text",
           "text_to_image": "held-out top-1 retrieval accuracy, text -> its image"}


def weight_shapes(s: dict) -> dict[str, tuple[int, ...]]:
    return {"image_projector": (s["dim_image"], s["dim"]), "text_projector": (s["dim_text"], s["dim"])}


def setup(rng: np.random.Generator, s: dict) -> tuple[dict, dict]:
    world = make_world(rng, dims=(s["dim_image"], s["dim_text"]), content_dim=s["content_dim"],
                       nuisance_dim=s["nuisance_dim"], nuisance_scale=s["nuisance_scale"], noise=s["noise"],
                       shared=False)
    return draw_run(rng, world, initial_weights(rng, weight_shapes(s)), s)


def train(fn: Callable, data: dict, s: dict) -> dict:
    def loss_on(w: dict, images: Any, texts: Any, step: int) -> Any:
        out = fn(images @ w["image_projector"], texts @ w["text_projector"], s["temperature"])
        return training.as_loss(out, step, key="loss")

    return training.fit(data, s["lr"], loss_on)


def score(w: dict, heldout: dict, s: dict) -> dict[str, float]:
    import torch

    images, texts = (torch.from_numpy(v).double() for v in heldout["views"])
    zi, zt = images @ w["image_projector"], texts @ w["text_projector"]
    return {"image_to_text": retrieval.top1(zi, zt), "text_to_image": retrieval.top1(zt, zi)}


def failure(figure: str, before: dict[str, float], after: dict[str, float], minimum: float, s: dict) -> str:
    direction = "image -> text" if figure == "image_to_text" else "text -> image"
    return (f"training two projectors with your loss did not learn to match images with their texts: held-out "
            f"{direction} top-1 retrieval accuracy went from {before[figure]:.3f} to {after[figure]:.3f} "
            f"(this test needs at least {minimum:.3f} in both directions, {s['heldout']} held-out pairs; "
            f"image -> text {after['image_to_text']:.3f}, text -> image {after['text_to_image']:.3f}). "
            "Both directions must be trained: cross-entropy over the rows and over the columns, labels arange(N)")
