import torch


def patchify(images, patch_height, patch_width):
    """Tensor.unfold along H, then W; any remainder that does not fill a patch is dropped."""
    if not isinstance(images, torch.Tensor) or images.dim() != 4:
        raise ValueError("images must be 4-D")
    for size in (patch_height, patch_width):
        if type(size) is not int or size <= 0:
            raise ValueError("patch sizes must be positive integers")
    b, c = images.shape[:2]
    x = images.unfold(2, patch_height, patch_height).unfold(3, patch_width, patch_width)
    gh, gw = x.shape[2], x.shape[3]  # (B, C, gh, gw, ph, pw)
    tokens = x.permute(0, 2, 3, 1, 4, 5).reshape(b, gh * gw, c * patch_height * patch_width)
    rows = torch.arange(gh).repeat_interleave(gw)
    cols = torch.arange(gw).repeat(gh)
    return {"tokens": tokens, "coordinates": torch.stack([rows, cols], dim=1)}
