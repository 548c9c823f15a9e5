import torch


def vit_pool(x, mode):
    if x.dim() != 3:
        raise ValueError("x must be 3-D")
    if mode not in ("cls", "mean"):
        raise ValueError("mode must be 'cls' or 'mean'")
    if mode == "mean" and x.shape[1] == 1:
        raise ValueError("no patch tokens")
    rows = []
    for sample in x:                      # (1 + N, D)
        if mode == "cls":
            rows.append(sample[0])
        else:
            total = torch.zeros_like(sample[0])
            for token in sample[1:]:
                total = total + token
            rows.append(total / (sample.shape[0] - 1))
    return torch.stack(rows)
