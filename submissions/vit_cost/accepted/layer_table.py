from dataclasses import dataclass


@dataclass(frozen=True)
class Matmul:
    """An (m, k) @ (k, n) product: m * k * n multiply-accumulates."""
    m: int
    k: int
    n: int

    @property
    def macs(self) -> int:
        return self.m * self.k * self.n


def _size(value):
    if type(value) is not int or value < 1:
        raise ValueError(f"expected a positive int, got {value!r}")
    return value


def _hw(value):
    pair = tuple(value) if isinstance(value, (list, tuple)) else (value, value)
    if len(pair) != 2:
        raise ValueError("a size is an int or a (height, width) pair")
    return tuple(_size(v) for v in pair)


def vit_cost(image_size, patch_size, channels, dim):
    """Every cost as a list of matrix products, summed."""
    (height, width), (ph, pw) = _hw(image_size), _hw(patch_size)
    channels, dim = _size(channels), _size(dim)
    rows, rest_h = divmod(height, ph)
    cols, rest_w = divmod(width, pw)
    if rest_h or rest_w:
        raise ValueError("image size not divisible by patch size")
    patches = rows * cols
    tokens = patches + 1
    patch_dim = channels * ph * pw
    embed = [Matmul(patches, patch_dim, dim)]
    attention = [Matmul(tokens, dim, tokens), Matmul(tokens, tokens, dim)]
    mlp = [Matmul(tokens, dim, 4 * dim), Matmul(tokens, 4 * dim, dim)]
    return {"num_patches": patches, "num_tokens": tokens, "patch_dim": patch_dim,
            "embed_macs": sum(m.macs for m in embed),
            "attention_macs": sum(m.macs for m in attention),
            "mlp_macs": sum(m.macs for m in mlp)}
