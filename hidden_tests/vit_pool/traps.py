"""Known mistakes for `vit_pool`, each a complete solution with one classic error."""


def mean_includes_cls(x, mode):
    return x[:, 0] if mode == "cls" else x.mean(dim=1)


def cls_from_last_position(x, mode):
    return x[:, -1] if mode == "cls" else x[:, 1:].mean(dim=1)


def keepdim(x, mode):
    return x[:, :1] if mode == "cls" else x[:, 1:].mean(dim=1, keepdim=True)


def mean_over_batch(x, mode):
    return x[:, 0] if mode == "cls" else x[:, 1:].mean(dim=0)


def mean_over_features(x, mode):
    return x[:, 0] if mode == "cls" else x[:, 1:].mean(dim=2)


def mean_for_both_modes(x, mode):
    return x[:, 1:].mean(dim=1)


def cls_for_both_modes(x, mode):
    return x[:, 0]


def divided_by_all_tokens(x, mode):
    if mode == "cls":
        return x[:, 0]
    return x[:, 1:].sum(dim=1) / x.shape[1]
