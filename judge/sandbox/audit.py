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
what the harness does when it describes an error; `logging` finds a record's file and line. Which code asks is told by identity, never
by name: the running frame's code object must be the very one of that function, and its
globals the very dict of its module (a function compiled under the standard library's file
and function names, `code.replace`d or rebuilt with other globals is none of them). Frames
pass from traceback's walkers into its extractor and `linecache`, which look names up as they
run, so traceback is trusted only while every name of `traceback` and `linecache` is still
bound as it was at install, its classes are immutable (`freeze_classes`) and no locals are
captured. Anything else ends the run at once: the hook writes one line naming the event to
stderr and exits with VIOLATION_EXIT, which the judge reports as security_violation (an exit
the submission could fake only hurts itself). An audit hook cannot be removed once added; it
is installed in the worker after the harness is bound, and it never raises (a raised
exception could be caught by the submission).

What remains is stated in README's sandbox section: memory written through interfaces that are
not audited (numpy's `__array_interface__` at an `id()` address), and module attributes rebound
(a module's `setattr` is not audited).
"""
from __future__ import annotations

import ctypes
import functools
import os
import sys
import sysconfig
from pathlib import Path
from types import CodeType

from judge.contract import VIOLATION_EXIT

IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE (CPython 3.10 and later)

_ALWAYS = frozenset({"sys._current_frames", "sys._current_exceptions", "gc.get_objects", "gc.get_referrers",
                     "gc.get_referents", "sys.settrace", "sys.setprofile"})
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
# Classes whose attributes the harness reads (its records, tensors, its socket): none may change.
_GUARDED_PACKAGES = frozenset({"judge", "torch", "socket", "traceback"})



@functools.cache
def _genuine() -> tuple[dict[int, tuple[CodeType, dict]], dict[int, tuple[CodeType, dict]],
                        tuple[CodeType, dict], tuple[CodeType, dict], tuple[tuple[dict, tuple], ...]]:
    """The standard library's code the hook trusts, as (code object, its module's globals):
    sys._getframe's callers and traceback's walkers by id, its extractor and the generator
    `StackSummary.extract` feeds it through, and a snapshot of traceback's and linecache's names."""
    import collections
    import enum
    import linecache
    import traceback
    import typing

    def of(function) -> tuple[CodeType, dict]:
        function = getattr(function, "__func__", function)
        return function.__code__, function.__globals__

    callers = [of(f) for f in (collections.namedtuple, typing._caller, enum.EnumType._create_,
                               traceback.extract_stack, traceback.format_stack, traceback.print_stack)]
    walkers = [of(f) for f in (traceback.walk_tb, traceback._walk_tb_with_full_positions)]
    extract_code, traceback_globals = of(traceback.StackSummary.extract)
    feeder = next(c for c in extract_code.co_consts if isinstance(c, CodeType) and c.co_name == "extended_frame_gen")
    extractor = of(traceback.StackSummary._extract_from_extended_frame_gen)
    names = tuple((vars(m), tuple(vars(m).items())) for m in (traceback, linecache))
    return ({id(c): (c, g) for c, g in callers}, {id(c): (c, g) for c, g in walkers}, (feeder, traceback_globals),
            extractor, names)


@functools.cache
def _logging_caller() -> tuple[tuple[CodeType, dict], tuple[CodeType, dict], tuple[tuple[str, object], ...]]:
    """logging's `currentframe` and the `Logger.findCaller` that calls it (a log record's file, line and
    function), and the names of logging's that findCaller hands frames to, as they are now."""
    import logging

    namespace = vars(logging)
    names = tuple((name, namespace[name]) for name in ("currentframe", "_is_internal_frame", "traceback")
                  if name in namespace)
    return ((logging.currentframe.__code__, namespace), (logging.Logger.findCaller.__code__, namespace), names)


def install() -> None:
    """Add the hook to this process (irreversible)."""
    callers, walkers, feeder, extractor, names = _genuine()
    current_frame, find_caller, logging_names = _logging_caller()
    judge_dir = str(Path(__file__).resolve().parents[1]) + os.sep
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    import_machinery = ("<frozen importlib", str(stdlib / "importlib") + os.sep)
    # Everything the hook uses is bound here: a submission rebinding os.write or sys._getframe
    # changes nothing it calls.
    getframe, write, leave = sys._getframe, os.write, os._exit
    str_type, type_type, isinstance_, type_vars, len_ = str, type, isinstance, vars, len
    hook_code = None

    def end(event: str, detail: str) -> None:
        try:
            write(2, f"\njudge: security violation: {event} {detail}".encode()[:300] + b"\n")
        finally:
            leave(VIOLATION_EXIT)

    def genuine(frame, trusted: tuple) -> bool:
        """Whether `frame` runs that code object, with those very globals."""
        return frame is not None and frame.f_code is trusted[0] and frame.f_globals is trusted[1]

    def listed(frame, table: dict) -> bool:
        return frame is not None and genuine(frame, table.get(id(frame.f_code), (None, None)))

    def names_intact() -> bool:
        for namespace, items in names:
            if len_(namespace) < len_(items):
                return False
            for name, value in items:
                if namespace.get(name, namespace) is not value:
                    return False
        return True

    def logging_frames(caller) -> bool:
        """logging's own `currentframe`, called by its own `Logger.findCaller`, which walks the frames
        above for the caller's file, line and function (and, with stack_info, traceback's text)."""
        if not (genuine(caller, current_frame) and genuine(caller.f_back, find_caller)):
            return False
        namespace = current_frame[1]
        return all(namespace.get(name, namespace) is value for name, value in logging_names) and names_intact()

    def traceback_frames(walker) -> bool:
        """A traceback walker's frame handed to traceback's own extractor, which makes text of it."""
        consumer = walker.f_back
        if genuine(consumer, feeder):  # StackSummary.extract's generator, between walker and extractor
            consumer = consumer.f_back
        return genuine(consumer, extractor) and not consumer.f_locals.get("capture_locals", True) \
            and names_intact()

    def hook(event: str, args: tuple) -> None:
        if event == "sys._getframe":
            returned = args[0]
            if returned.f_code is hook_code:
                return  # the hook finding its own caller, below
            caller = getframe(0).f_back
            if listed(caller, callers) and (caller.f_globals is not names[0][0] or names_intact()):
                return
            if logging_frames(caller):
                return
            end(event, "(frames lead to the judge's harness)")
        elif event == "object.__getattr__":
            if len(args) < 2 or args[1] not in _FRAME_ATTRIBUTES:
                return
            walker = getframe(0).f_back
            if args[1] == "tb_frame" and listed(walker, walkers) and traceback_frames(walker):
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


def prepare() -> None:
    """Find, ahead (in the zygote, before any fork), what `install` and `freeze_classes` need: the
    trusted code objects, the classes to freeze and where a type keeps its flags. A child that
    looked them up itself would touch every object of every judge module, copying the pages."""
    _genuine()
    _logging_caller()
    _classes_to_freeze(frozenset(name for name in sys.modules if name.partition(".")[0] == "judge"))
    _flags_offset()


def freeze_classes() -> int:
    """Make the classes the harness builds and reads its records with immutable, as CPython's own are.

    Assigning a class attribute (`ErrorInfo.is_a = ...`, `torch.Tensor.dtype = property(...)`) is not
    audited, and every class can be found without frames or gc (`object.__subclasses__()`); an
    immutable type refuses every assignment (TypeError). Done with ctypes, before the hook forbids
    it: the judge's classes, torch's Tensor and Parameter, the socket class, traceback's classes.
    Returns how many.
    """
    offset = _flags_offset()
    if offset is None:
        return 0
    modules = frozenset(name for name in sys.modules if name.partition(".")[0] == "judge")
    classes = _classes_to_freeze(modules)
    for cls in classes:
        flags = ctypes.c_ulong.from_address(id(cls) + offset)
        if not flags.value & IMMUTABLE_TYPE:  # frozen by the zygote already: no write, no page copied
            flags.value |= IMMUTABLE_TYPE
    return len(classes)


@functools.lru_cache(maxsize=4)
def _classes_to_freeze(modules: frozenset[str]) -> tuple[type, ...]:
    """The judge's classes (of the judge modules named), torch's Tensor and Parameter, the socket
    class, traceback's classes; the same modules give the same list, found once."""
    classes = [obj for name in sorted(modules) if (module := sys.modules.get(name)) is not None
               for obj in list(vars(module).values()) if isinstance(obj, type) and obj.__module__ == name]
    torch = sys.modules.get("torch")
    if torch is not None:
        classes += [torch.Tensor, torch.nn.Parameter]
    socket = sys.modules.get("socket")
    if socket is not None:
        classes.append(socket.socket)
    import traceback  # its extractor is trusted with frames only while its classes stay as they are

    classes += [traceback.FrameSummary, traceback.StackSummary, traceback.TracebackException]
    return tuple(classes)


@functools.cache
def _flags_offset() -> int | None:
    """Where a type object keeps its flags: found by matching `__flags__` of a few types."""
    probes = (int, type, object, dict, property)
    for offset in range(0, 512, 8):
        if all(ctypes.c_ulong.from_address(id(t) + offset).value == t.__flags__ for t in probes):
            return offset
    return None
