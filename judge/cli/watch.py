"""Watch mode: judge a file again every time it is saved (`judge run ID FILE --watch`).

Polling the file's modification time and size keeps this dependency-free and
works on every file system (editors that save by replacing the file included);
a change is acted on once the file has been stable for one poll, so a save in
progress is not judged half-written.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

POLL_S = 0.25


def _read_stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:  # mid-save (replaced) or deleted: wait for it to come back
        return None
    return stat.st_mtime_ns, stat.st_size


def watch_file(path: Path, on_change: Callable[[], None], *, poll_s: float = POLL_S,
               max_runs: int | None = None) -> int:
    """Call `on_change` now and after every change of `path`, until interrupted (or `max_runs` calls).

    Returns the number of runs. KeyboardInterrupt ends the watch quietly.
    """
    runs = 0
    last = _read_stamp(path)
    try:
        on_change()
        runs += 1
        while max_runs is None or runs < max_runs:
            time.sleep(poll_s)
            now = _read_stamp(path)
            if now is None or now == last:
                continue
            time.sleep(poll_s)  # settle: judge the file once the writer is done
            if _read_stamp(path) != now:
                continue
            last = now
            on_change()
            runs += 1
    except KeyboardInterrupt:
        pass
    return runs
