"""Watch mode: judge again on every save (judge/cli/watch.py)."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from judge.cli.watch import watch_file


def test_runs_once_then_once_per_save(tmp_path: Path) -> None:
    path = tmp_path / "sol.py"
    path.write_text("v = 1\n")
    seen: list[str] = []

    def save_twice() -> None:
        for text in ("v = 2\n", "v = 33\n"):
            while len(seen) < (1 if text == "v = 2\n" else 2):
                time.sleep(0.01)
            path.write_text(text)

    writer = threading.Thread(target=save_twice, daemon=True)
    writer.start()
    runs = watch_file(path, lambda: seen.append(path.read_text()), poll_s=0.02, max_runs=3)
    writer.join(timeout=10)
    assert runs == 3 and seen == ["v = 1\n", "v = 2\n", "v = 33\n"]


def test_a_file_replaced_or_briefly_missing_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "sol.py"
    path.write_text("a\n")
    seen: list[str] = []

    def replace() -> None:
        while not seen:
            time.sleep(0.01)
        path.unlink()
        time.sleep(0.1)
        (tmp_path / "tmp.py").write_text("bb\n")
        (tmp_path / "tmp.py").replace(path)  # as editors save: write aside, then rename over

    threading.Thread(target=replace, daemon=True).start()
    watch_file(path, lambda: seen.append(path.read_text()), poll_s=0.02, max_runs=2)
    assert seen == ["a\n", "bb\n"]
