"""A config dataclass with math.prod and operator.index: a float size is a TypeError, as Python's own int APIs say it.

Adapted from: the fvcore / ptflops style of counting a ViT's multiply-accumulates per layer (a frozen config of the sizes, one method per count), written with the standard library's dataclasses, math.prod and operator.index
expect: accepted
"""
import math
import operator
from dataclasses import dataclass


def _pair(value):
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f"expected a (height, width) pair, got {len(value)} items")
        return operator.index(value[0]), operator.index(value[1])
    side = operator.index(value)
    return side, side


@dataclass(frozen=True)
class ViTConfig:
    image: tuple[int, int]
    patch: tuple[int, int]
    channels: int
    dim: int

    def __post_init__(self) -> None:
        if min(*self.image, *self.patch, self.channels, self.dim) < 1:
            raise ValueError("sizes must be positive")
        if any(s % p for s, p in zip(self.image, self.patch)):
            raise ValueError("the patch must tile the image")

    @property
    def num_patches(self) -> int:
        return math.prod(s // p for s, p in zip(self.image, self.patch))

    @property
    def patch_dim(self) -> int:
        return self.channels * math.prod(self.patch)


def vit_cost(image_size, patch_size, channels, dim):
    config = ViTConfig(_pair(image_size), _pair(patch_size), operator.index(channels), operator.index(dim))
    tokens = config.num_patches + 1
    return {"num_patches": config.num_patches, "num_tokens": tokens, "patch_dim": config.patch_dim,
            "embed_macs": config.num_patches * config.patch_dim * config.dim,
            "attention_macs": 2 * tokens ** 2 * config.dim,
            "mlp_macs": 8 * tokens * config.dim ** 2}
