"""Bringing a class in: `judge service users import` of a roster against `users add` once per learner.

    python benchmarks/service_roster.py [--learners 300] [--adds 10] [--database sqlite|postgresql] [--json]

In the same run, on a fresh database each time: `judge service users import ROSTER.csv -o TOKENS.csv`
of N learners (median of 3 runs), and `judge service users add NAME --course C` called `--adds`
times (the median call). Printed: the import's wall time, the per-call time of `users add`, the
time N `users add` calls would take at that median, and the ratio. PostgreSQL runs in a throwaway
cluster on 127.0.0.1 (tests/service/servers.py).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _timing import isolated_env, judge_command, scratch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "service"))   # the throwaway servers the tests use too

from servers import postgres_cluster  # noqa: E402

RUNS = 3


def _fresh_database(kind: str, cluster, index: int, directory: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{directory / f'db{index}.sqlite3'}"
    from sqlalchemy import create_engine, text

    admin = create_engine(cluster.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE bench{index}"))
    admin.dispose()
    return cluster.url.rsplit("/", 1)[0] + f"/bench{index}"


def _timed(command: list[str], env: dict) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr.strip()[-500:]}")
    return elapsed


def run(learners: int, adds: int, kind: str) -> dict:
    directory = scratch("judge-roster-")
    env = isolated_env()
    roster = directory / "roster.csv"
    roster.write_text("name,course,email,id\n" + "".join(f"learner{i:04d},ml101,l{i}@example.org,S{i}\n"
                                                       for i in range(learners)))
    judge = judge_command()
    with (postgres_cluster() if kind == "postgresql" else _no_cluster()) as cluster:
        index = 0
        imports, calls = [], []
        for run_index in range(RUNS):     # interleaved: an import, then a few single adds, on fresh databases
            index += 1
            url = _fresh_database(kind, cluster, index, directory)
            imports.append(_timed([*judge, "service", "--database", url, "users", "import", str(roster), "-o",
                                   str(directory / f"tokens{index}.csv")], env))
            index += 1
            url = _fresh_database(kind, cluster, index, directory)
            for n in range(adds // RUNS + (1 if run_index < adds % RUNS else 0)):
                calls.append(_timed([*judge, "service", "--database", url, "users", "add", f"single{n}", "--course",
                                     "ml101"], env))
    per_add = statistics.median(calls)
    imported = statistics.median(imports)
    return {"database": kind, "learners": learners, "import_s": round(imported, 2),
            "import_runs_s": [round(t, 2) for t in imports], "users_add_s": round(per_add, 3),
            "users_add_calls": len(calls), "adds_for_class_s": round(per_add * learners, 1),
            "ratio": round(per_add * learners / imported, 1)}


class _no_cluster:
    def __enter__(self):
        return None

    def __exit__(self, *exc) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--adds", type=int, default=10)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.learners, args.adds, args.database)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['database']}: users import of {result['learners']}: {result['import_s']} s (median of "
          f"{RUNS}: {result['import_runs_s']}); users add: {result['users_add_s']} s a call (median of "
          f"{result['users_add_calls']}), {result['adds_for_class_s']} s for the class; {result['ratio']}x")


if __name__ == "__main__":
    main()
