"""The child's audit hook (PEP 578): no way from Python into the harness's objects (issue 21, class 4).

The harness runs in the submission's own process. Its objects are out of the submission's
reach only while no Python-level path leads to them; the paths are the ones CPython audits:

- a frame: `sys._getframe`, `sys._current_frames`, `sys._current_exceptions`, and the frame
  of a traceback, generator, coroutine or async generator (`tb_frame`, `gi_frame`,
  `cr_frame`, `ag_frame`); from any frame, `f_back` leads to the harness's frames and
  `f_locals`/`f_globals` to its objects (neither is audited, so a frame is never handed out);
- every object: `gc.get_objects`, `gc.get_referrers`, `gc.get_referents`;
- every frame as it runs: `sys.settrace`, `sys.setprofile` (and threading's, which call them);
- raw memory: every `ctypes` operation (`ctypes.dlopen`, `ctypes.cdata` (`from_address`),
  `ctypes.addressof`, foreign calls such as `ctypes.memmove`...);
- the judge's classes, and torch's, changed in place (`object.__setattr__`/`__delattr__` on a
  class whose module is judge's or torch's): the harness constructs its records with them;
- a judge module imported afresh by the submission's code (the judge's own lazy imports are its
  own). The modules already loaded stay importable: nothing the harness calls looks a name up in
  them (`judge.harness` binds private copies, and the judge's classes are made immutable here).

The standard library's own uses that hand no frame out are allowed: `collections.namedtuple`,
`typing` and `enum` read their caller's module name; `traceback` turns a traceback or the
stack into text (`format_exc`, `print_exc`, `extract_tb`, `extract_stack`...), which is also
what the harness does when it describes an error. Anything else ends the run at once: the
hook writes one line naming the event to stderr and exits with VIOLATION_EXIT, which the judge
reports as security_violation (an exit the submission could fake only hurts itself). An audit
hook cannot be removed once added; it is installed in the worker after the harness is bound,
and it never raises (a raised exception could be caught by the submission).

What remains is stated in README's sandbox section: memory written through interfaces that are
not audited (numpy's `__array_interface__` at an `id()` address), and module attributes rebound
(a module's `setattr` is not audited).
"""
from __future__ import annotations

import ctypes
import os
import sys
import sysconfig
from pathlib import Path

from judge.contract import VIOLATION_EXIT

IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE (CPython 3.10 and later)

_ALWAYS = frozenset({"sys._current_frames", "sys._current_exceptions", "gc.get_objects", "gc.get_referrers",
                     "gc.get_referents", "sys.settrace", "sys.setprofile"})
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
# Classes whose attributes the harness reads (its records, tensors, its socket): none may change.
_GUARDED_PACKAGES = frozenset({"judge", "torch", "socket"})

# (file relative to the standard library, function): callers of sys._getframe that hand no frame out.
_GETFRAME_CALLERS = frozenset({("collections/__init__.py", "namedtuple"), ("typing.py", "_caller"),
                               ("enum.py", "_create_"), ("traceback.py", "extract_stack"),
                               ("traceback.py", "format_stack"), ("traceback.py", "print_stack")})
# traceback's walkers of a traceback, and the one consumer that turns what they yield into text.
_TB_WALKERS = frozenset({"walk_tb", "_walk_tb_with_full_positions"})
_TB_CONSUMERS = frozenset({"_extract_from_extended_frame_gen", "extract"})


def install() -> None:
    """Add the hook to this process (irreversible)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    getframe_callers = frozenset((str(stdlib / name), function) for name, function in _GETFRAME_CALLERS)
    traceback_file = str(stdlib / "traceback.py")
    judge_dir = str(Path(__file__).resolve().parents[1]) + os.sep
    import_machinery = ("<frozen importlib", str(stdlib / "importlib") + os.sep)
    # Everything the hook uses is bound here: a submission rebinding os.write or sys._getframe
    # changes nothing it calls.
    getframe, write, leave = sys._getframe, os.write, os._exit
    str_type, type_type, isinstance_, type_vars = str, type, isinstance, vars
    hook_code = None

    def end(event: str, detail: str) -> None:
        try:
            write(2, f"\njudge: security violation: {event} {detail}".encode()[:300] + b"\n")
        finally:
            leave(VIOLATION_EXIT)

    def where(frame) -> tuple[str, str]:
        code = frame.f_code
        return code.co_filename, code.co_name

    def hook(event: str, args: tuple) -> None:
        if event == "sys._getframe":
            returned = args[0]
            if returned.f_code is hook_code:
                return  # the hook finding its own caller, below
            caller = getframe(0).f_back
            if caller is not None and where(caller) in getframe_callers:
                return
            end(event, "(frames lead to the judge's harness)")
        elif event == "object.__getattr__":
            if len(args) < 2 or args[1] not in _FRAME_ATTRIBUTES:
                return
            caller = getframe(0).f_back
            consumer = caller.f_back if caller is not None else None
            if consumer is not None:
                (file, name), (consumer_file, consumer_name) = where(caller), where(consumer)
                if file == traceback_file == consumer_file and name in _TB_WALKERS \
                        and consumer_name in _TB_CONSUMERS:
                    return  # traceback's text of a traceback
            end(event, f"({args[1]})")
        elif event in ("object.__setattr__", "object.__delattr__"):
            target = args[0] if args else None
            if isinstance_(target, type_type):
                module = type_vars(target).get("__module__", "")
                if type_type(module) is str_type and module.partition(".")[0] in _GUARDED_PACKAGES:
                    end(event, f"({module}.{type_vars(target).get('__qualname__', '?')} changed)")
        elif event == "import":
            name = args[0] if args else ""
            if type_type(name) is str_type and name.partition(".")[0] == "judge":
                importer = getframe(0).f_back
                while importer is not None and importer.f_code.co_filename.startswith(import_machinery):
                    importer = importer.f_back
                if importer is None or not importer.f_code.co_filename.startswith(judge_dir):
                    end(event, f"({name})")  # the judge's own lazy imports (its experiments) are its own
        elif event in _ALWAYS or event.startswith("ctypes."):
            end(event, "")

    hook_code = hook.__code__
    sys.addaudithook(hook)


def freeze_classes() -> int:
    """Make the classes the harness builds and reads its records with immutable, as CPython's own are.

    Assigning a class attribute (`ErrorInfo.is_a = ...`, `torch.Tensor.dtype = property(...)`) is not
    audited, and every class can be found without frames or gc (`object.__subclasses__()`); an
    immutable type refuses every assignment (TypeError). Done with ctypes, before the hook forbids
    it: the judge's classes, torch's Tensor and Parameter, the socket class. Returns how many.
    """
    offset = _flags_offset()
    if offset is None:
        return 0
    classes = [obj for name, module in list(sys.modules.items()) if name.partition(".")[0] == "judge"
               for obj in list(vars(module).values()) if isinstance(obj, type) and obj.__module__ == name]
    torch = sys.modules.get("torch")
    if torch is not None:
        classes += [torch.Tensor, torch.nn.Parameter]
    socket = sys.modules.get("socket")
    if socket is not None:
        classes.append(socket.socket)
    for cls in classes:
        flags = ctypes.c_ulong.from_address(id(cls) + offset)
        flags.value |= IMMUTABLE_TYPE
    return len(classes)


def _flags_offset() -> int | None:
    """Where a type object keeps its flags: found by matching `__flags__` of a few types."""
    probes = (int, type, object, dict, property)
    for offset in range(0, 512, 8):
        if all(ctypes.c_ulong.from_address(id(t) + offset).value == t.__flags__ for t in probes):
            return offset
    return None
