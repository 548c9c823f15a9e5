"""`judge list` as a terminal table: status, id, title, level, library and tags, clipped to the width."""
from __future__ import annotations

from judge.render.segments import Line

STATUS_STYLES = {"solved": "green", "attempted": "yellow", "new": None}


def listing_lines(items: list[dict], width: int) -> list[Line]:
    """One row per problem, as `judge list --json` writes them (`id`, `title`, `difficulty`,
    `framework`, `tags`, `status`, `pack`, `extra`), in at most `width` columns; a unit's extra
    marked before its title; a pack column only when an installed pack adds problems."""
    id_width = max(len("problem"), *(len(i["id"]) for i in items))
    packs = [i.get("pack", "") for i in items]
    pack_width = max(len("pack"), *map(len, packs)) + 2 if any(packs) else 0
    fixed = 9 + 2 + id_width + 2 + 6 + 2 + 5 + 2 + pack_width  # status, id, difficulty, framework, pack, gaps
    titles = [("(extra) " if i.get("extra") else "") + i["title"] for i in items]  # before: a clip cuts the end
    title_width = min(max(map(len, titles)), max(20, (width - fixed) * 3 // 5))
    tag_width = max(0, width - fixed - title_width - 2)
    pack_head = "pack".ljust(pack_width) if pack_width else ""
    lines: list[Line] = [[(f"{'status':<9}  {'problem'.ljust(id_width)}  {'title'.ljust(title_width)}  "
                           f"{'level':<6}  {'lib':<5}  {pack_head}tags", "bold")]]
    for item, pack, title in zip(items, packs, titles):
        pack_cell = (pack or "-").ljust(pack_width) if pack_width else ""
        lines.append([(f"{item['status']:<9}", STATUS_STYLES[item["status"]]),
                      (f"  {item['id'].ljust(id_width)}  {clip(title, title_width)}  "
                       f"{item['difficulty']:<6}  {item['framework']:<5}  {pack_cell}"
                       f"{clip(', '.join(item['tags']), tag_width)}", None)])
    return lines


def clip(text: str, width: int) -> str:
    """`text` in exactly `width` columns: padded, or cut with an ellipsis."""
    return text.ljust(width) if len(text) <= width else text[:max(0, width - 1)] + "…"
