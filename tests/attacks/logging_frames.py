"""Issue 21, class 4: logging's findCaller hands each frame above a log call to `_is_internal_frame`,
a name logging looks up as it runs. Rebound, it is handed the harness's frames. Bounded: one call."""
import logging

real = logging._is_internal_frame


def spy(frame):
    if "BUILTIN_EXCEPTIONS" in frame.f_globals or "originals" in frame.f_locals:
        print("PWNED: the harness's frame through logging", flush=True)
    return real(frame)


def double(x):
    logging._is_internal_frame = spy
    logging.warning("doubling")
    return x * 2
