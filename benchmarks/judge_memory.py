"""The judge's own peak memory (RSS) per submission: amplifying results vs a correct one.

Each measurement is a fresh Python process that judges one submission on the
attack fixture problem `double` (three tests, here with a 10 s time limit) and reports its own peak RSS
(`ru_maxrss`; the sandbox's processes are not counted). Submissions:

- `correct`: returns `x * 2` (the baseline, measured in the same run);
- `tiny arrays`: returns 80,000 one-byte arrays per call (about 5 MB on the wire);
- `dict keys`: returns a dict with 9,000 extra keys per call;
- `large tensor`: returns a 40 MB tensor per call (an honest wrong answer).

Prints the median over --runs runs (MiB) and the ratio to `correct`.
`--judge-root DIR` measures another checkout of the judge (e.g. an export
of main) with this script's submissions, for a before/after comparison.

    python benchmarks/judge_memory.py [--runs 3] [--judge-root DIR]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "attacks" / "problem_set"

SUBMISSIONS = {
    "correct": "def double(x):\n    return x * 2\n",
    "tiny arrays": ("import numpy as np\nTINY = np.zeros(1, dtype=np.uint8)\n"
                    "def double(x):\n    return [[TINY] * 40_000, [TINY] * 40_000]\n"),
    "dict keys": ("EXTRA = {f'key_{i:05d}_' + 'x' * 40: 0 for i in range(9_000)}\n"
                  "def double(x):\n    return {'value': x * 2, **EXTRA}\n"),
    "large tensor": "import torch\ndef double(x):\n    return torch.zeros(10 << 20)\n",
}

# Run in the measured process: judge one file, print the verdict and the peak RSS in KiB.
_MEASURE = """
import resource, sys
sys.path.insert(0, sys.argv[1])
from judge.judging.session import Judge
with Judge(sys.argv[2], record=False) as judge:
    report = judge.run("double", sys.argv[3])
    text = report.dumps()
print(report.verdict.value, len(text), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _problem_set(base: Path) -> Path:
    root = base / "problem_set"
    shutil.copytree(FIXTURE, root)
    for path in root.rglob("*.yaml"):
        path.write_text(path.read_text().replace("@MARKER@", "marker"))
    # A generous time limit, so that encoding a large result in the child is not what stops it.
    public = root / "problems" / "double.yaml"
    public.write_text(public.read_text().replace("limits: {time_s: 1,", "limits: {time_s: 10,"))
    return root


def measure(judge_root: Path, problems: Path, submission: Path) -> tuple[str, int, float]:
    env = {**os.environ, "JUDGE_CACHE_DIR": "off", "JUDGE_NO_RECORD": "1"}
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(judge_root), str(problems), str(submission)],
                          capture_output=True, text=True, timeout=600, env=env)
    if done.returncode != 0:
        raise SystemExit(f"measuring {submission.name} failed:\n{done.stderr[-2000:]}")
    verdict, size, rss_kb = done.stdout.split()[-3:]
    return verdict, int(size), int(rss_kb) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--judge-root", type=Path, default=REPO)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        problems = _problem_set(base)
        rows = []
        for name, source in SUBMISSIONS.items():
            path = base / f"{name.replace(' ', '_')}.py"
            path.write_text(source)
            results = [measure(options.judge_root, problems, path) for _ in range(options.runs)]
            rows.append((name, results[-1][0], results[-1][1], statistics.median(r[2] for r in results)))
    baseline = rows[0][3]
    print(f"judge: {options.judge_root}  (median of {options.runs} runs, peak RSS of the judging process)")
    print(f"{'submission':<14} {'verdict':<24} {'report bytes':>12} {'peak MiB':>9} {'x correct':>9}")
    for name, verdict, size, rss in rows:
        print(f"{name:<14} {verdict:<24} {size:>12} {rss:>9.0f} {rss / baseline:>9.2f}")


if __name__ == "__main__":
    main()
