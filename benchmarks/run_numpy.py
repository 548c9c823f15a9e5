"""`judge run info_nce <correct>` vs `python -c "import numpy"`: target <= 3x.

A numpy problem must not import torch. Skips (exit 0) when this checkout has
no info_nce problem or no accepted submission for it.
"""
from __future__ import annotations

import subprocess
import sys

from _timing import REPO, RUNS, isolated_env, judge_command, medians, python, report

PROBE = ("import sys; from judge.cli.commands import main\n"
         "try:\n    main(sys.argv[1:], standalone_mode=False)\n"
         "finally:\n    print('torch' in sys.modules, file=sys.stderr)")


def main() -> int:
    accepted = sorted((REPO / "submissions" / "info_nce" / "accepted").glob("*.py"))
    if not (REPO / "problems" / "info_nce.yaml").is_file() or not accepted:
        print("skipped: no info_nce problem (or no accepted submission) in this checkout")
        return 0
    submission = str(accepted[0].relative_to(REPO))
    env = isolated_env()
    times = medians({"import numpy": python("import numpy"),
                     "judge run info_nce": judge_command() + ["run", "info_nce", submission]}, env)
    print(f"medians of {RUNS} runs: " + ", ".join(f"{k} {v:.3f} s" for k, v in times.items()))
    probe = subprocess.run(python(PROBE) + ["run", "info_nce", submission], env=env, cwd=REPO,
                           capture_output=True, text=True)
    imported = probe.stderr.strip().splitlines()[-1:] == ["True"]
    print(f"torch imported by judge run info_nce: {'yes (FAIL)' if imported else 'no'}")
    ok = report("judge run info_nce / import numpy", times["judge run info_nce"] / times["import numpy"], 3.0)
    return 0 if ok and not imported else 1


if __name__ == "__main__":
    sys.exit(main())
