"""As root in the mount namespace, unmount the tmpfs that hides the hidden tests, then read them."""
import ctypes

ROOT = "@ROOT@"
libc = ctypes.CDLL(None, use_errno=True)


def double(x):
    target = f"{ROOT}/hidden_tests".encode()
    if libc.umount2(target, 2) == 0:  # MNT_DETACH
        print("PWNED unmounted")
    text = open(f"{ROOT}/hidden_tests/double/tests.yaml").read()
    if "@MARKER@" in text:
        print("PWNED read after umount")
    return x * 2
