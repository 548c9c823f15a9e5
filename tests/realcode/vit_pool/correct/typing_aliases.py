"""Pooling behind typing aliases: a Literal mode checked with get_args, Tuple and Union aliases, a Generic registry.

Adapted from: huggingface/pytorch-image-models, timm/models/vision_transformer.py (global_pool: Literal['', 'avg', 'token', 'map'] and VisionTransformer.pool) and timm/layers/_registry-style name -> implementation tables, typed with typing's generics
expect: accepted
"""
from typing import Callable, Dict, Generic, Literal, Optional, Tuple, TypeVar, Union, get_args

import torch
from torch import Tensor

PoolMode = Literal["cls", "mean"]
Shape = Tuple[int, int, int]
T = TypeVar("T")


class Registry(Generic[T]):
    """Implementations by name."""

    def __init__(self) -> None:
        self._entries: Dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        def add(entry: T) -> T:
            self._entries[name] = entry
            return entry
        return add

    def get(self, name: str) -> Optional[T]:
        return self._entries.get(name)


POOLS: Registry[Callable[[Tensor], Tensor]] = Registry()


@POOLS.register("cls")
def _class_token(x: Tensor) -> Tensor:
    return x[:, 0]


@POOLS.register("mean")
def _average_patches(x: Tensor) -> Tensor:
    if x.shape[1] < 2:
        raise ValueError("mean pooling needs at least one patch token")
    return x[:, 1:].mean(dim=1)


def _shape(x: Union[Tensor, object]) -> Shape:
    if not isinstance(x, torch.Tensor) or x.dim() != 3:
        raise ValueError("x must be (B, 1 + N, D)")
    b, t, d = x.shape
    return b, t, d


def vit_pool(x: Tensor, mode: PoolMode) -> Tensor:
    _shape(x)
    if not isinstance(mode, str) or mode not in get_args(PoolMode):
        raise ValueError(f"mode must be one of {get_args(PoolMode)}, got {mode!r}")
    pool = POOLS.get(mode)
    assert pool is not None
    return pool(x)
