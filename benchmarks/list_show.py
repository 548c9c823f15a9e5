"""`judge list` at most 5x `python -c pass`; `judge show patchify` without torch, <= 0.5 s.

`python -c pass` and `python -c "import numpy"` are measured alongside, in the
same run (the judge needs numpy for `show`'s values; a listing from its index
needs neither numpy nor YAML). The first `judge list` of the run builds the
index (the warm-up run).
"""
from __future__ import annotations

import os
import subprocess
import sys

from _timing import REPO, RUNS, isolated_env, judge_command, medians, python, report

PROBE = ("import sys; from judge.cli.commands import main\n"
         "try:\n    main(sys.argv[1:], standalone_mode=False)\n"
         "finally:\n    print('torch' in sys.modules, file=sys.stderr)")


def main() -> int:
    env = isolated_env()
    judge = judge_command()
    times = medians({"python -c pass": python("pass"), "import numpy": python("import numpy"),
                     "judge list": judge + ["list"], "judge show patchify": judge + ["show", "patchify"]}, env)
    print(f"medians of {RUNS} runs: " + ", ".join(f"{k} {v:.3f} s" for k, v in times.items())
          + f" (load {os.getloadavg()[0]:.2f})")
    ok = report("judge list / python -c pass", times["judge list"] / times["python -c pass"], 5.0)
    for name, args in (("judge show patchify", ["show", "patchify"]),):
        probe = subprocess.run(python(PROBE) + args, env=env, cwd=REPO, capture_output=True, text=True)
        imported = probe.stderr.strip().splitlines()[-1:] == ["True"]
        print(f"torch imported by {name}: {'yes (FAIL)' if imported else 'no'}")
        ok &= report(name, times[name], 0.5, unit="s") and not imported
        print(f"  ({times[name] / times['import numpy']:.2f}x import numpy)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
