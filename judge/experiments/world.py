"""The synthetic world of the experiments: paired views that share content and differ in nuisance.

Every sample has a content vector c (what two views of it share) and each view
adds its own nuisance n_v (what an augmentation or a modality changes):
`x_v = c @ A_v + n_v @ B_v + noise`. Nuisance is stronger than content, so an
untrained projection is dominated by it and retrieves badly; a projection
trained contrastively learns to keep the content directions and drop the
nuisance ones. `A_v` is shared by both views for two augmentations of one
modality (SimCLR, SimSiam) and differs for two modalities (CLIP).

The mixing matrices come from the experiment's seed, which lives in the hidden
tests: the child receives training samples, never the world that made them,
and the held-out samples are drawn in the judge only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class World:
    content: tuple[np.ndarray, np.ndarray]    # A_1, A_2: (content_dim, dim_v)
    nuisance: tuple[np.ndarray, np.ndarray]   # B_1, B_2: (nuisance_dim, dim_v)
    nuisance_scale: float
    noise: float

    def draw(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        """`n` pairs of views, float32: row i of both views shows sample i."""
        c = rng.standard_normal((n, self.content[0].shape[0]))
        views = []
        for a, b in zip(self.content, self.nuisance):
            nuisance = rng.standard_normal((n, b.shape[0])) * self.nuisance_scale
            x = c @ a + nuisance @ b + rng.standard_normal((n, a.shape[1])) * self.noise
            views.append(x.astype(np.float32))
        return views[0], views[1]


def make_world(rng: np.random.Generator, *, dims: tuple[int, int], content_dim: int, nuisance_dim: int,
               nuisance_scale: float, noise: float, shared: bool) -> World:
    """Random orthonormal mixers; `shared` gives both views the same content mixer (one modality)."""
    def mixer(rows: int, dim: int) -> np.ndarray:
        q, _ = np.linalg.qr(rng.standard_normal((dim, dim)))
        return q[:rows]

    first = [mixer(content_dim + nuisance_dim, dims[0])]
    second = first if shared else [mixer(content_dim + nuisance_dim, dims[1])]
    a1, b1 = first[0][:content_dim], first[0][content_dim:]
    a2, b2 = second[0][:content_dim], second[0][content_dim:]
    return World(content=(a1, a2), nuisance=(b1, b2), nuisance_scale=nuisance_scale, noise=noise)


def initial_weights(rng: np.random.Generator, shapes: dict[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    """float32 weights: matrices N(0, 1/fan_in), biases (names ending in `_bias`) zero."""
    return {name: (np.zeros(shape) if name.endswith("_bias") else rng.standard_normal(shape) / math.sqrt(shape[0]))
            .astype(np.float32) for name, shape in shapes.items()}


def draw_run(rng: np.random.Generator, world: World, weights: dict, s: dict) -> tuple[dict, dict]:
    """The child's training data (initial weights, `train` pairs, `steps` batches of `batch` indices)
    and the judge's held-out views (`heldout` pairs), in that order from `rng`."""
    x1, x2 = world.draw(rng, s["train"])
    batches = np.stack([rng.permutation(s["train"])[: s["batch"]] for _ in range(s["steps"])]).astype(np.int64)
    return {"weights": weights, "views": [x1, x2], "batches": batches}, {"views": list(world.draw(rng, s["heldout"]))}
