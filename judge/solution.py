"""Loading trusted Python code (references and trap functions) into the judge.

Only files from hidden_tests/ are loaded this way; submissions never are.
Loading never writes: a problem set may be read-only (an installed course) and
its files are fingerprinted, so no `__pycache__/` may appear beside them,
whatever PYTHONDONTWRITEBYTECODE says.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from typing import Callable

from judge.errors import ConfigError


class _ReadOnlyLoader(importlib.machinery.SourceFileLoader):
    """Python's source loader, minus the bytecode it would write into the problem set."""

    def set_data(self, path, data, *, _mode=0o666):  # the one hook through which bytecode is cached
        return None


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path, loader=_ReadOnlyLoader(name, str(path)))
    if spec is None or spec.loader is None:
        raise ConfigError("cannot be loaded as Python", file=path)
    module = importlib.util.module_from_spec(spec)
    try:
        # Compiled here rather than by the loader, which would write __pycache__/ into the problem
        # set: judging never writes there (found as a normal user, whose problem set is writable).
        code = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        exec(code, module.__dict__)
    except FileNotFoundError:
        raise ConfigError("file not found", file=path) from None
    except SyntaxError as exc:
        raise ConfigError(f"syntax error: {exc.msg}", file=path, line=exc.lineno) from None
    except Exception as exc:  # an author's module failing at import is a config error, reported in one line
        raise ConfigError(f"fails to import: {type(exc).__name__}: {exc}", file=path) from None
    _single_threaded_torch()
    return module


def _single_threaded_torch() -> None:
    """References and traps run on small tensors: threads only add contention with the sandbox.

    Measured on 2 cores under load: one F.cross_entropy took 0.12 ms on one
    thread and ~35 ms on two, which made `judge validate clip_loss` take 32 s.
    """
    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != 1:
        torch.set_num_threads(1)


def load_function(path: Path, function: str, label: str = "reference") -> Callable:
    module = load_module(path, f"_judge_{label}_{abs(hash(str(path)))}")
    fn = getattr(module, function, None)
    if not callable(fn):
        raise ConfigError(f"defines no function `{function}`", file=path, field=label)
    return fn
