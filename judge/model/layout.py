"""A stamp of a problem set's files: names, sizes and times (standard library only).

`Judge` re-prepares a problem when its set's stamp changes; `judge list`
answers from its index (judge.cli.index) while the stamp it was built for holds.
"""
from __future__ import annotations

import os
from pathlib import Path


def stamp(*directories: Path) -> tuple:
    """Names, sizes and times of every file under `directories`: any edit changes it."""
    entries = []
    for top in directories:
        for directory, _, files in os.walk(top):
            for name in files:
                try:
                    info = os.stat(os.path.join(directory, name))
                except OSError:
                    continue  # removed while we looked: the next stamp differs anyway
                entries.append((directory, name, info.st_size, info.st_mtime_ns))
    return tuple(sorted(entries))
