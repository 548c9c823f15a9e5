"""A running generator's frame, and from it its caller's.

Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""


def _walk():
    yield


def double(x):
    walker = _walk()
    next(walker)
    frame = walker.gi_frame
    if frame is not None:
        print("reached a frame", flush=True)
    return x * 3
