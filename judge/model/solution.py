"""Loading trusted Python code (references and trap functions) into the judge.

Only code from hidden_tests/ is loaded this way (a file, or `Inline` source
written in tests.yaml); submissions never are. Loading never writes: a problem
set may be read-only (an installed course) and its files are fingerprinted, so
no `__pycache__/` may appear beside them, whatever PYTHONDONTWRITEBYTECODE says.
"""
from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from judge.base.errors import ConfigError
from judge.base.quiet import quiet, trust


@dataclass(frozen=True)
class Inline:
    """Python source written in a YAML file (a one-file problem's reference or traps)."""

    text: str
    line: int      # the YAML line holding the code's first line: tracebacks and errors point there


def load_module(path: Path, name: str, inline: Inline | None = None):
    """The module in `path`, or `inline`'s source (then `path` is the YAML file it is written in)."""
    module = types.ModuleType(name)
    module.__file__ = str(path)   # tracebacks and inspect find the source through it
    trust(str(path))              # whatever it warns, wherever it is called from, shows no line of it
    try:
        # Compiled here rather than by the loader, which would write __pycache__/ into the problem
        # set: judging never writes there (found as a normal user, whose problem set is writable).
        # Inline code is padded so that its line numbers are the YAML file's.
        source = path.read_bytes() if inline is None else "\n" * (inline.line - 1) + inline.text
        with quiet():  # what it warns as it loads (an import's deprecation) is no face's business either
            code = compile(source, str(path), "exec", dont_inherit=True)
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


def load_function(path: Path, function: str, label: str = "reference", inline: Inline | None = None) -> Callable:
    module = load_module(path, f"_judge_{label}_{abs(hash(str(path)))}", inline)
    fn = getattr(module, function, None)
    if not callable(fn):
        raise ConfigError(f"defines no function `{function}`", file=path, field=label)
    return fn
