"""Known mistakes for `simsiam_loss`, each a complete solution with one classic error.

`no_stop_gradient` gives the reference's values: the gradient check on z1, z2
and the training experiment catch it (it is listed under the experiment's
`fails`, not under `traps:`).
"""
import torch
import torch.nn.functional as F


def _cos(p, z):
    return (F.normalize(p.double(), dim=1) * F.normalize(z.double(), dim=1)).sum(dim=1)


def _d(p, z, reduce=torch.mean):
    return -reduce(_cos(p, z.detach()))


def no_stop_gradient(p1, p2, z1, z2):
    return (-_cos(p1, z2).mean() / 2 - _cos(p2, z1).mean() / 2).to(p1.dtype)


def same_view(p1, p2, z1, z2):
    return (_d(p1, z1) / 2 + _d(p2, z2) / 2).to(p1.dtype)


def wrong_sign(p1, p2, z1, z2):
    return (-(_d(p1, z2) / 2 + _d(p2, z1) / 2)).to(p1.dtype)


def dot_product(p1, p2, z1, z2):
    def d(p, z):
        return -(p.double() * z.detach().double()).sum(dim=1).mean()
    return (d(p1, z2) / 2 + d(p2, z1) / 2).to(p1.dtype)


def summed(p1, p2, z1, z2):
    return (_d(p1, z2, torch.sum) / 2 + _d(p2, z1, torch.sum) / 2).to(p1.dtype)


def one_term(p1, p2, z1, z2):
    return _d(p1, z2).to(p1.dtype)


def terms_added(p1, p2, z1, z2):
    return (_d(p1, z2) + _d(p2, z1)).to(p1.dtype)


def byol_form(p1, p2, z1, z2):
    # BYOL's regression loss, 2 - 2 cos (the squared distance of unit vectors), halved per term
    return ((2 + 2 * _d(p1, z2)) / 2 + (2 + 2 * _d(p2, z1)) / 2).to(p1.dtype)


def byol_form_summed(p1, p2, z1, z2):
    # BYOL's loss_one + loss_two, each the mean of 2 - 2 cos
    return ((2 + 2 * _d(p1, z2)) + (2 + 2 * _d(p2, z1))).to(p1.dtype)
