"""The warm judge's memory, as its user's machine counts it, and where it goes.

`judge run` starts a warm judge (a background process of the user's) the first time; this measures
what it holds once it has judged a file and is idle: every process of it (the judge itself, its
fork server, the run it keeps ready: a monitor and a worker) with its PSS (each shared page
counted once, split among the processes that map it: the figure to add up), USS (its private
pages) and RSS. For scale, in the same run: a bare `python -c "import torch"` kept alive.

The judge's own process maps torch: it computes expected values with the reference solution and
runs the known mistakes' functions on the same inputs to name a wrong answer, both in its process.
The fork server imports torch once so that every run forked from it starts with torch imported;
pages it has not written since are shared with the runs (PSS splits them).

    python benchmarks/warm_footprint.py
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from _timing import REPO, isolated_env, judge_command

SUBMISSION = "submissions/patchify/accepted/reshape_permute.py"


def memory_kb(pid: int) -> dict[str, int]:
    """Pss, Rss and private (USS) kB of process `pid`, from /proc/<pid>/smaps_rollup."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name] = int(parts[0])
    return {"pss": fields.get("Pss", 0), "rss": fields.get("Rss", 0),
            "uss": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)}


def processes() -> dict[int, int]:
    """pid -> parent pid, of every process."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            found[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def environment_has(pid: int, needle: bytes) -> bool:
    try:
        return needle in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


ROLES = ("the judge (serves `judge run`)", "its fork server (torch imported)", "the ready run's monitor",
         "the ready run's worker")


def warm_judge(home: str) -> list[tuple[int, str]]:
    """The warm judge of this JUDGE_HOME and every process under it, each with its role (by depth)."""
    parents = processes()
    roots = [pid for pid in parents if environment_has(pid, f"JUDGE_HOME={home}".encode())
             and not environment_has(parents[pid], f"JUDGE_HOME={home}".encode())]
    tree, todo = [], [(pid, 0) for pid in roots]
    while todo:
        pid, depth = todo.pop()
        tree.append((pid, ROLES[depth] if depth < len(ROLES) else f"a process {depth} levels down"))
        todo.extend((child, depth + 1) for child, parent in parents.items() if parent == pid)
    return sorted(tree)


def mib(kb: int) -> str:
    return f"{kb / 1024:7.1f} MiB"


def main() -> int:
    env = isolated_env()
    judge = judge_command()
    import torch  # noqa: F401 - only its version, for the record
    print(f"torch {sys.modules['torch'].__version__}, python {sys.version.split()[0]}")
    subprocess.run(judge + ["serve", "--stop"], env=env, cwd=REPO, capture_output=True)
    started = time.perf_counter()
    run = subprocess.run(judge + ["run", "patchify", SUBMISSION], env=env, cwd=REPO, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"judge run exited with {run.returncode}: {run.stderr[-400:]}")
    print(f"first judge run: {time.perf_counter() - started:.2f} s")
    time.sleep(3.0)  # the run kept ready for the next one forked, the judge idle
    total = {"pss": 0, "rss": 0, "uss": 0}
    tree = warm_judge(env["JUDGE_HOME"])
    if not tree:
        raise SystemExit("no warm judge found")
    for pid, role in tree:
        kb = memory_kb(pid)
        total = {k: total[k] + kb[k] for k in total}
        print(f"  PSS {mib(kb['pss'])}  USS {mib(kb['uss'])}  RSS {mib(kb['rss'])}  {role}")
    print(f"warm judge, {len(tree)} processes: PSS {mib(total['pss'])} (USS {mib(total['uss'])})")
    bare = subprocess.Popen([sys.executable, "-c", "import torch, time; print(flush=True); time.sleep(60)"],
                            stdout=subprocess.PIPE)
    try:
        bare.stdout.readline()
        kb = memory_kb(bare.pid)
        print(f"for scale, python -c 'import torch': PSS {mib(kb['pss'])} (USS {mib(kb['uss'])})")
    finally:
        bare.kill()
        bare.wait()
    subprocess.run(judge + ["serve", "--stop"], env=env, cwd=REPO, capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
