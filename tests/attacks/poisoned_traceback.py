"""Issue 21, class 4: traceback's extractor looks `linecache` up as it runs; rebound, it is handed
each frame's globals, and while the harness handles this file's exception, the harness's frame
is on the traceback. Bounded: one call."""
import sys
import traceback

real = traceback.linecache


class Spy:
    def lazycache(self, filename, module_globals):
        if "BUILTIN_EXCEPTIONS" in module_globals or "originals" in module_globals:
            print("PWNED: the harness's globals through traceback's linecache", flush=True)
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
