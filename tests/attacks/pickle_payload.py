"""Return an object whose unpickling would run code in the judge."""
import os


class Payload:
    def __reduce__(self):
        return (os.system, ("touch @CANARY@/pickle_ran",))


def double(x):
    return {"value": Payload(), "tensor": x * 2}
