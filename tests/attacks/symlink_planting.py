"""Plant symlinks to precious directories in the scratch directory, hoping cleanup follows them."""
import os


def double(x):
    os.makedirs("nested/deeper", exist_ok=True)
    for target, link in (("@CANARY@/precious", "link_to_precious"), ("@ROOT@", "link_to_problem_set"),
                         ("/", "link_to_root"), ("@CANARY@/precious", "nested/deeper/link")):
        if not os.path.lexists(link):  # the same scratch directory serves every test of a run
            os.symlink(target, link)
    return x * 2
