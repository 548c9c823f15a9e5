"""Known mistakes for `random_masking`, each a complete solution with one classic error."""
import math

import torch


def _masking(x, len_keep, ids_shuffle, ids_restore, mask_in_original_order=True):
    batch, length, width = x.shape
    kept = torch.gather(x, 1, ids_shuffle[:, :len_keep].unsqueeze(-1).expand(-1, -1, width))
    mask = torch.ones(batch, length, dtype=x.dtype)
    mask[:, :len_keep] = 0
    if mask_in_original_order:
        mask = torch.gather(mask, 1, ids_restore)
    return {"kept": kept, "mask": mask, "ids_restore": ids_restore}


def _len_keep(x, mask_ratio):
    return int(x.shape[1] * (1 - mask_ratio))


def one_mask_for_the_batch(x, mask_ratio, noise):
    ids_shuffle = torch.argsort(noise[0]).expand(x.shape[0], -1)
    return _masking(x, _len_keep(x, mask_ratio), ids_shuffle, torch.argsort(ids_shuffle, dim=1))


def mask_in_shuffled_order(x, mask_ratio, noise):
    ids_shuffle = torch.argsort(noise, dim=1)
    return _masking(x, _len_keep(x, mask_ratio), ids_shuffle, torch.argsort(ids_shuffle, dim=1),
                    mask_in_original_order=False)


def descending_argsort(x, mask_ratio, noise):
    ids_shuffle = torch.argsort(noise, dim=1, descending=True)
    return _masking(x, _len_keep(x, mask_ratio), ids_shuffle, torch.argsort(ids_shuffle, dim=1))


def rounded_len_keep(x, mask_ratio, noise):
    ids_shuffle = torch.argsort(noise, dim=1)
    return _masking(x, round(x.shape[1] * (1 - mask_ratio)), ids_shuffle, torch.argsort(ids_shuffle, dim=1))


def ceiled_len_keep(x, mask_ratio, noise):
    ids_shuffle = torch.argsort(noise, dim=1)
    return _masking(x, math.ceil(x.shape[1] * (1 - mask_ratio)), ids_shuffle, torch.argsort(ids_shuffle, dim=1))


def gathered_along_features(x, mask_ratio, noise):
    batch, length, width = x.shape
    len_keep = _len_keep(x, mask_ratio)
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    out = _masking(x, len_keep, ids_shuffle, ids_restore)
    # the right index on the wrong axis: fine while every kept id < D, an IndexError-like crash otherwise
    out["kept"] = torch.gather(x, 2, ids_shuffle[:, :len_keep].unsqueeze(-1).repeat(1, 1, width))
    return out


def ids_restore_is_ids_shuffle(x, mask_ratio, noise):
    # MAE unshuffles the mask with ids_restore: with ids_shuffle in its place the mask is wrong too
    ids_shuffle = torch.argsort(noise, dim=1)
    return _masking(x, _len_keep(x, mask_ratio), ids_shuffle, ids_shuffle)


def len_keep_of_masked(x, mask_ratio, noise):
    ids_shuffle = torch.argsort(noise, dim=1)
    return _masking(x, int(x.shape[1] * mask_ratio), ids_shuffle, torch.argsort(ids_shuffle, dim=1))
