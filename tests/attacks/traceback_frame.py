"""Issue 21, class 4: a frame from a caught exception's traceback, then up to the harness."""


def double(x):
    try:
        raise KeyError("x")
    except KeyError as exc:
        frame = exc.__traceback__.tb_frame.f_back
        if frame is not None and "originals" in frame.f_locals:
            print("PWNED: the harness's frame", flush=True)
    return x * 2
