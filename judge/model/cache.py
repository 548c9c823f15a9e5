"""The on-disk cache of a problem version's expected observations and trap outputs.

Running the trusted reference on every case costs time on each `judge run`
and `judge show`; its results only change when the problem does. The same
holds for the problem's traps (known wrong implementations), which diagnosing
a wrong answer runs on every case: over a second per `judge grade patchify`.
This module owns both entry kinds' place on disk, their key, their envelope
and their pruning; what a trap output holds is judge.judging.grading's (it hands this
module plain wire data and checks what it gets back). Two entries per version:

- `<id>-<key>.expected`: the reference's observation of every call of every case;
- `<id>-<key>.traps`: each trap's output on each case, in judge.judging.grading's plain form.

An entry is keyed by a SHA-256 over everything that can change what it holds:

- the problem's files: the public YAML and every file of hidden_tests/<id>/
  (tests.yaml, reference.py, traps.py, helpers), plus the reference and traps
  files wherever tests.yaml points;
- the cases themselves: each call's inputs in wire bytes (so a change to the
  generators or to a check's extra calls invalidates too);
- the judge code that observes a call (execute.py, wire.py, grading.py, experiments/);
- the numpy, torch and Python versions.

Both kinds share the key (a trap output depends on what an expected value does:
traps.py, the cases' inputs, execute.py, wire.py, grading.py, the versions), so
pruning keeps or drops a version's entries together.

Values are stored in the plain wire format (never pickle), behind a magic
line (one per kind) and a SHA-256 of the payload: a corrupted, truncated or
foreign entry is rebuilt, never trusted. A cache that cannot be written is
disabled cleanly: the judge computes expectations and runs traps as if there
were no cache.

The directory is `$JUDGE_CACHE_DIR` when set (`off` disables the cache),
else `$XDG_CACHE_HOME/tensor-judge/expected` or `~/.cache/tensor-judge/expected`.
It holds expected values and the traps' outputs: the sandbox must never let a submission read it.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from judge.model.cases import Case
    from judge.runs.calls import Observation
    from judge.model.problem import Hidden, Problem

    Expected = dict[str, Observation]

FORMAT = b"tensor-judge expected v1\n"
TRAPS_FORMAT = b"tensor-judge traps v1\n"
DIGEST_BYTES = 32
KEEP_PER_PROBLEM = 4          # keys kept per problem id (examples-only and full runs, a few edits), each with
# its expected entry and its traps entry
MAX_ENTRY_BYTES = 1 << 31
ENV = "JUDGE_CACHE_DIR"
DISABLED_VALUES = ("off", "0", "none", "false")
# Judge modules whose code decides what an expected observation holds (an experiment call's value is
# the weights trained by judge.experiments, so its modules count too); traps.py decides what a trap
# output holds, and grading.py, which calls both, is kept in.
_OBSERVING_MODULES = ("runs/calls.py", "runs/script.py", "base/encoding.py", "judging/expected.py", "judging/traps.py",
                      "judging/grading.py", "experiments/*.py")

def default_directory() -> Path | None:
    """Where entries live: $JUDGE_CACHE_DIR, else the user's cache dir; None when disabled."""
    explicit = os.environ.get(ENV)
    if explicit is not None:
        if explicit.strip().lower() in DISABLED_VALUES or not explicit.strip():
            return None
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "tensor-judge" / "expected"


@dataclass
class ExpectedCache:
    """Expected observations on disk; `directory=None` is a cache that never hits."""

    directory: Path | None
    disabled_reason: str = ""    # set when writing failed; the cache then stays off for this judge

    @classmethod
    def from_env(cls) -> "ExpectedCache":
        return cls(default_directory())

    @property
    def enabled(self) -> bool:
        return self.directory is not None and not self.disabled_reason

    # ------------------------------------------------------------ the one entry point
    def expected(self, problem: Problem, hidden: Hidden | None, cases: list[Case], compute: Callable[[], list[Expected]],
                 *, key: str | None = None) -> list[Expected]:
        """The cached expectations of `cases`, or `compute()`'s, stored for next time (`key`: their
        `cache_key`, when the caller has it already)."""
        if not self.enabled:
            return compute()
        key = key if key is not None else cache_key(problem, hidden, cases)
        found = self.load(problem.id, key, cases)
        if found is not None:
            return found
        expected = compute()
        self.store(problem.id, key, cases, expected)
        return expected

    def traps_entry(self, problem_id: str, key: str) -> "TrapsEntry | None":
        """Where the trap outputs of the version `key` live; None when the cache is off."""
        return TrapsEntry(self, problem_id, key) if self.enabled else None

    # ------------------------------------------------------------ entries
    def path(self, problem_id: str, key: str) -> Path:
        assert self.directory is not None
        return self.directory / f"{_safe(problem_id)}-{key[:32]}.expected"

    def traps_path(self, problem_id: str, key: str) -> Path:
        assert self.directory is not None
        return self.directory / f"{_safe(problem_id)}-{key[:32]}.traps"

    def load(self, problem_id: str, key: str, cases: list[Case]) -> list[Expected] | None:
        """The entry for `key` when it exists and is intact; None otherwise (a miss)."""
        from judge.base import encoding as wire  # numpy: not for `judge list`, which only finds the cache's directory
        if not self.enabled:
            return None
        try:
            data = self.path(problem_id, key).read_bytes()
        except OSError:  # missing, unreadable or a directory: a miss, rebuilt on store
            return None
        try:
            return _unpack(data, key, cases)
        except (wire.WireError, ValueError, TypeError, KeyError, AttributeError):
            return None  # corrupted or from another layout: never trusted, rebuilt

    def store(self, problem_id: str, key: str, cases: list[Case], expected: list[Expected]) -> bool:
        """Write the entry atomically; on any OS error disable the cache and return False."""
        from judge.base import encoding as wire
        if not self.enabled:
            return False
        try:
            payload = _pack(key, cases, expected)
        except wire.WireError:  # an expected value too large for the format: this entry is not cached
            return False
        return self._write(problem_id, self.path(problem_id, key), payload)

    def load_traps(self, problem_id: str, key: str) -> Any | None:
        """The plain trap outputs stored for `key` when the entry exists and is intact; None otherwise.

        Only the envelope is checked here (magic line, checksum, key): judge.judging.grading checks the
        outputs themselves and treats anything else as a miss too."""
        from judge.base import encoding as wire
        if not self.enabled:
            return None
        try:
            data = self.traps_path(problem_id, key).read_bytes()
        except OSError:
            return None
        try:
            plain = _opened(TRAPS_FORMAT, data)
        except (wire.WireError, ValueError, TypeError):
            return None
        if type(plain) is not dict or plain.get("key") != key or "outputs" not in plain:
            return None
        return plain["outputs"]

    def store_traps(self, problem_id: str, key: str, outputs: Any) -> bool:
        """Write the trap outputs (plain wire data) of `key` atomically; False when not written."""
        from judge.base import encoding as wire
        if not self.enabled:
            return False
        try:
            payload = _sealed(TRAPS_FORMAT, {"key": key, "outputs": outputs})
        except wire.WireError:  # too large for the format: recomputed in each process, as without a cache
            return False
        return self._write(problem_id, self.traps_path(problem_id, key), payload)

    def _write(self, problem_id: str, target: Path, payload: bytes) -> bool:
        """Write `payload` to `target` atomically and prune; on an OS error disable the cache."""
        assert self.directory is not None
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, temp = tempfile.mkstemp(prefix=".tmp-", dir=self.directory)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(payload)
                os.replace(temp, target)  # readers see the old entry or the whole new one
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            self.disabled_reason = f"{self.directory}: {exc.strerror or exc}"
            return False
        self._prune(problem_id, keep=target)
        return True

    def _prune(self, problem_id: str, keep: Path) -> None:
        """Keep the entries of a problem's newest few keys, so edits do not grow the cache forever.

        Counted by key, not by file: a version's expected values and its traps' outputs are kept or
        dropped together (an expected entry whose traps entry is gone would cost a second per batch)."""
        assert self.directory is not None
        prefix = f"{_safe(problem_id)}-"
        try:
            newest: dict[str, float] = {}   # key -> its newest entry's time
            files: dict[str, list[Path]] = {}
            for suffix in (".expected", ".traps"):
                for p in self.directory.glob(f"{prefix}*{suffix}"):
                    key = p.name[len(prefix):-len(suffix)]
                    files.setdefault(key, []).append(p)
                    newest[key] = max(newest.get(key, 0.0), p.stat().st_mtime)
            kept = keep.name[len(prefix):].rsplit(".", 1)[0]
            others = sorted((k for k in newest if k != kept), key=newest.__getitem__, reverse=True)
            for old in others[KEEP_PER_PROBLEM - 1:]:
                for p in files[old]:
                    p.unlink(missing_ok=True)
        except OSError:
            pass  # another judge pruned concurrently; nothing to repair


@dataclass(frozen=True)
class TrapsEntry:
    """The on-disk entry of one problem version's trap outputs, as a TrapSet holds it (judge.judging.grading)."""

    cache: ExpectedCache
    problem_id: str
    key: str

    def load(self) -> Any | None:
        return self.cache.load_traps(self.problem_id, self.key)

    def store(self, outputs: Any) -> bool:
        return self.cache.store_traps(self.problem_id, self.key, outputs)


# ---------------------------------------------------------------- the key

def cache_key(problem: Problem, hidden: Hidden | None, cases: list[Case]) -> str:
    """A hex SHA-256 of everything an expected observation depends on."""
    from judge.base import encoding as wire
    digest = hashlib.sha256()

    def part(label: str, data: bytes) -> None:
        name = label.encode()
        digest.update(len(name).to_bytes(4, "little") + name + len(data).to_bytes(8, "little"))
        digest.update(data)

    part("format", FORMAT)
    for name, version in _versions():
        part(f"version:{name}", version.encode())
    for label, path in problem_files(problem, hidden):
        try:
            part(f"file:{label}", path.read_bytes())
        except OSError as exc:
            part(f"unreadable:{label}", str(exc.errno).encode())
    judge_dir = Path(__file__).resolve().parents[1]
    for path in observing_files():
        part(f"judge:{path.relative_to(judge_dir).as_posix()}", path.read_bytes())
    for case in cases:
        part("case", case.name.encode())
        for name, call in case.calls.items():
            part(f"call:{name}", wire.encode(call.to_plain(), MAX_ENTRY_BYTES))
    return digest.hexdigest()


def observing_files() -> list[Path]:
    """The judge's own source files an expected observation depends on, in a stable order."""
    judge_dir = Path(__file__).resolve().parents[1]
    return [path for pattern in _OBSERVING_MODULES for path in sorted(judge_dir.glob(pattern))]


def problem_files(problem: Problem, hidden: Hidden | None) -> list[tuple[str, Path]]:
    """(label, path) of each file that defines the problem, in a stable order."""
    files: dict[Path, str] = {problem.path: "public.yaml"}
    directory = problem.hidden_dir
    if directory.is_dir():
        for path in sorted(directory.iterdir()):
            if path.is_file():
                files.setdefault(path, f"hidden/{path.name}")
    if hidden is not None:
        # tests.yaml may point outside its directory (`reference: ../shared/ref.py`).
        files.setdefault(hidden.path, "hidden.yaml")
        files.setdefault(hidden.reference, "reference")
        if hidden.traps_file is not None:
            files.setdefault(hidden.traps_file, "traps")
    return [(label, path) for path, label in files.items()]


def _versions() -> list[tuple[str, str]]:
    import numpy

    versions = [("python", "%d.%d" % sys.version_info[:2]), ("numpy", numpy.__version__)]
    torch = sys.modules.get("torch")
    if torch is not None:
        versions.append(("torch", str(torch.__version__)))
    else:
        # Read torch/version.py instead of importing torch (judge show, numpy problems); it is
        # also ~15x faster than importlib.metadata, which scans every installed distribution.
        versions.append(("torch", _torch_version_on_disk()))
    return versions


def _torch_version_on_disk() -> str:
    import importlib.util
    import re

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return "absent"
    for location in spec.submodule_search_locations:
        try:
            text = (Path(location) / "version.py").read_text()
        except OSError:
            continue
        found = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", text, re.M)
        if found:
            return found.group(1)
    return "unknown"


def _safe(problem_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", problem_id)[:64] or "_"


# ---------------------------------------------------------------- the entry format

def _sealed(magic: bytes, plain: Any) -> bytes:
    """An entry: the kind's magic line, a SHA-256 of the payload, the payload (plain wire data)."""
    from judge.base import encoding as wire
    payload = wire.encode(plain, MAX_ENTRY_BYTES)
    return magic + hashlib.sha256(payload).digest() + payload


def _opened(magic: bytes, data: bytes) -> Any:
    """The plain payload of an entry of kind `magic`; anything unexpected raises (the caller rebuilds)."""
    from judge.base import encoding as wire
    if not data.startswith(magic):
        raise ValueError("not an entry of this format")
    start = len(magic) + DIGEST_BYTES
    stored_digest, payload = data[len(magic):start], data[start:]
    if hashlib.sha256(payload).digest() != stored_digest:
        raise ValueError("checksum mismatch")
    return wire.decode(payload, len(payload))


def _pack(key: str, cases: list[Case], expected: list[Expected]) -> bytes:
    plain = {"key": key,
             "cases": [[case.name, list(case.calls)] for case in cases],
             "expected": [{name: obs.to_plain() for name, obs in exp.items()} for exp in expected]}
    return _sealed(FORMAT, plain)


def _unpack(data: bytes, key: str, cases: list[Case]) -> list[Expected]:
    """Decode and verify an entry; anything unexpected raises (and the caller rebuilds)."""
    from judge.runs.calls import Observation
    plain: Any = _opened(FORMAT, data)
    if type(plain) is not dict or plain.get("key") != key:
        raise ValueError("entry for another key")
    if plain.get("cases") != [[case.name, list(case.calls)] for case in cases]:
        raise ValueError("entry for other cases")
    entries = plain["expected"]
    if type(entries) is not list or len(entries) != len(cases):
        raise ValueError("wrong number of cases")
    expected = []
    for case, entry in zip(cases, entries):
        if type(entry) is not dict or list(entry) != list(case.calls):
            raise ValueError("wrong calls")
        expected.append({name: Observation.from_plain(obs) for name, obs in entry.items()})
    return expected
