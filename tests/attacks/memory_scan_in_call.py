"""Scan the process's own memory for expected values, hidden names and secrets, during a call.

The judge sent this call's inputs (and every other call's) before it ran: if an expected output ever
entered the child, it would be in memory now.

Each needle is kept as two halves and only matched where both halves sit side
by side, so the attack never puts a whole needle into memory itself. Shared
libraries' mappings are skipped: their pages hold code and constants, never the
judge's data, and torch's CUDA build maps ~3 GB of them (reading those took 33 s
and was stopped at import instead of finishing the scan).
"""
import re
import struct

NEEDLES = {
    "expected value": (struct.pack("<f", 2 * 1234.5678125), struct.pack("<f", 2 * -8765.4321875)),
    "hidden marker": (b"@MARKER_A@", b"@MARKER_B@"),
    "secret": (b"@SECRET_A@", b"@SECRET_B@"),
}

SHARED_LIBRARY = re.compile(r"\.so(\.[0-9.]+)?$")


def _hits(chunk, first, second):
    start = chunk.find(first)
    while start != -1:
        end = start + len(first)
        if chunk[end:end + len(second)] == second:
            return True
        start = chunk.find(first, start + 1)
    return False


def _scan():
    found = set()
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
        for line in maps:
            start, end, perms = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+)", line).groups()
            start, end = int(start, 16), int(end, 16)
            if "r" not in perms or end - start > 1 << 30 or SHARED_LIBRARY.search(line):
                continue
            try:
                mem.seek(start)
                chunk = mem.read(end - start)
            except (OSError, ValueError, OverflowError):
                continue
            for what, (first, second) in NEEDLES.items():
                if _hits(chunk, first, second):
                    found.add(what)
    return found


def double(x):
    found = _scan()
    if found:
        print("PWNED", sorted(found))
    return x * 3
