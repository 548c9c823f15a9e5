"""Change a class the observing code builds its records with (found without importing it).

The records are the child's account of a call; the value (right) is compared in the judge, so the
verdict stands (accepted), and the patched class is flagged in the report's tampering list.
"""


def _classes(root):
    todo, seen = [root], []
    while todo:
        cls = todo.pop()
        seen.append(cls)
        try:
            todo.extend(cls.__subclasses__())
        except TypeError:
            pass
    return seen


def double(x):
    for cls in _classes(object):
        if cls.__name__ == "ErrorInfo" and cls.__module__.startswith("judge"):
            try:
                cls.__init__ = lambda self, *a, **k: None  # every record the harness builds would be empty
            except TypeError:
                continue
            print("patched", cls, flush=True)
    return x * 2
