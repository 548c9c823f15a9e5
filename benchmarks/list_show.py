"""`judge list` and `judge show patchify`: no torch import, median <= 0.5 s each (issue 6).

`python -c "import numpy"` is measured alongside as the baseline of this
machine (the judge needs numpy for `show`'s values).
"""
from __future__ import annotations

import subprocess
import sys

from _timing import REPO, RUNS, isolated_env, judge_command, medians, python, report

PROBE = ("import sys; from judge.cli import main\n"
         "try:\n    main(sys.argv[1:], standalone_mode=False)\n"
         "finally:\n    print('torch' in sys.modules, file=sys.stderr)")


def main() -> int:
    env = isolated_env()
    judge = judge_command()
    times = medians({"import numpy": python("import numpy"), "judge list": judge + ["list"],
                     "judge show patchify": judge + ["show", "patchify"]}, env)
    print(f"medians of {RUNS} runs: " + ", ".join(f"{k} {v:.3f} s" for k, v in times.items()))
    ok = True
    for name, args in (("judge list", ["list"]), ("judge show patchify", ["show", "patchify"])):
        probe = subprocess.run(python(PROBE) + args, env=env, cwd=REPO, capture_output=True, text=True)
        imported = probe.stderr.strip().splitlines()[-1:] == ["True"]
        print(f"torch imported by {name}: {'yes (FAIL)' if imported else 'no'}")
        ok &= report(name, times[name], 0.5, unit="s") and not imported
        print(f"  ({times[name] / times['import numpy']:.2f}x import numpy)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
