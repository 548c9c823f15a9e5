"""Start programs in every way Python offers."""
import os
import subprocess


def double(x):
    status = os.system("touch @CANARY@/system_ran")
    if status == 0:
        print("PWNED os.system")
    subprocess.run(["touch", "@CANARY@/subprocess_ran"], check=True)
    print("PWNED subprocess")
    os.execv("/usr/bin/touch", ["touch", "@CANARY@/exec_ran"])
