"""judge/render/listing.py: `judge list`'s table."""
from __future__ import annotations

from judge.render import listing_lines, to_text

ITEMS = [{"id": "patchify", "title": "Patchify a Batch of Images", "difficulty": "easy", "framework": "torch",
          "tags": ["vision", "tokens"], "status": "solved"},
         {"id": "clip_loss", "title": "Symmetric CLIP Contrastive Loss", "difficulty": "medium",
          "framework": "torch", "tags": ["contrastive"], "status": "new"}]


def test_rows_fit_the_width_and_clip_long_titles_with_an_ellipsis():
    lines = to_text(listing_lines(ITEMS, 60)).splitlines()
    assert lines[0].split() == ["status", "problem", "title", "level", "lib", "tags"]
    assert lines[1].startswith("solved     patchify   Patchify a Batch of…  easy    torch")
    assert all(len(line) <= 60 for line in lines[1:])  # rows; the header is not clipped


def test_status_is_coloured_by_what_it_says():
    coloured = to_text(listing_lines(ITEMS, 100), colour=True).splitlines()
    assert coloured[1].startswith("\x1b[32msolved   \x1b[0m") and coloured[2].startswith("new      ")
