"""The ViT's sizes as a strict pydantic model (PositiveInt pairs, a model validator for tiling); its ValidationError is a ValueError.

Adapted from: huggingface/pytorch-image-models, timm/layers/patch_embed.py (PatchEmbed._init_img_size: to_2tuple, grid_size, num_patches), the arguments validated by a pydantic v2 model as configs of training scripts are
expect: accepted
"""
from typing import Any, Tuple

from pydantic import BaseModel, ConfigDict, PositiveInt, field_validator, model_validator


class ViTConfig(BaseModel):
    # strict: no bool for an int, no 224.0, no "224"
    model_config = ConfigDict(strict=True, frozen=True)

    image_size: Tuple[PositiveInt, PositiveInt]
    patch_size: Tuple[PositiveInt, PositiveInt]
    channels: PositiveInt
    dim: PositiveInt

    @field_validator("image_size", "patch_size", mode="before")
    @classmethod
    def to_2tuple(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return (value, value)
        if isinstance(value, list):
            return tuple(value)
        return value

    @model_validator(mode="after")
    def patch_tiles_image(self) -> "ViTConfig":
        if self.image_size[0] % self.patch_size[0] or self.image_size[1] % self.patch_size[1]:
            raise ValueError(f"a {self.patch_size} patch does not tile a {self.image_size} image")
        return self

    @property
    def grid_size(self) -> Tuple[int, int]:
        return self.image_size[0] // self.patch_size[0], self.image_size[1] // self.patch_size[1]


def vit_cost(image_size, patch_size, channels, dim):
    config = ViTConfig(image_size=image_size, patch_size=patch_size, channels=channels, dim=dim)
    num_patches = config.grid_size[0] * config.grid_size[1]
    num_tokens = num_patches + 1
    patch_dim = config.channels * config.patch_size[0] * config.patch_size[1]
    return {"num_patches": num_patches, "num_tokens": num_tokens, "patch_dim": patch_dim,
            "embed_macs": num_patches * patch_dim * config.dim,
            "attention_macs": 2 * num_tokens ** 2 * config.dim,
            "mlp_macs": 8 * num_tokens * config.dim ** 2}
