"""Rebind traceback's `linecache`, which its extractor looks up as it runs: it is handed each frame's
globals while the observing code describes this file's exception. Bounded: one call.

The error raised is the submission's (a ValueError subclass): runtime_error. The rebinding of a
library module's name is flagged in the report's tampering list.
"""
import sys
import traceback

real = traceback.linecache


class Spy:
    def lazycache(self, filename, module_globals):
        if "BUILTIN_EXCEPTIONS" in module_globals or "originals" in module_globals:
            print("reached the observing code's globals", flush=True)
        return real.lazycache(filename, module_globals)

    def __getattr__(self, name):
        return getattr(real, name)


class Loud(ValueError):
    def __str__(self):
        traceback.format_exc()   # the exception being handled: the harness's frame on top
        return "loud"


def double(x):
    traceback.linecache = Spy()
    raise Loud()
