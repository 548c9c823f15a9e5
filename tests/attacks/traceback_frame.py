"""A frame from a caught exception's traceback, then up to the code that observes the call.

Reaching it is the submission's own business in its own process: the value (3x, wrong) is compared in the judge with an expected value the child never holds, so the verdict is wrong_answer, and the reach is flagged in the report's tampering list.
"""


def double(x):
    try:
        raise KeyError("x")
    except KeyError as exc:
        frame = exc.__traceback__.tb_frame.f_back
        if frame is not None and "originals" in frame.f_locals:
            print("reached the observing frame", flush=True)
    return x * 3
