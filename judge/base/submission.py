"""One submission: its source text, decoded once, and where it came from.

Every face takes code in through here: `judge run` and `judge grade` read a
file (`Submission.from_file`), the warm server, the web page, the notebook and
the judging service get text (`Submission.from_text`). A file is text as
Python reads it: UTF-8 unless a PEP 263 coding line says otherwise, a UTF-8
byte-order mark dropped. The source size limit is defined here, once.

Standard library only, and light (the warm client imports it on a path that
must print a verdict in tens of milliseconds): `tokenize` is imported only for
a file that declares its encoding.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from judge.base.errors import ConfigError, NotSourceText, Unreadable
from judge.base.escape import escape_name

MAX_SOURCE_BYTES = 1 << 20   # one submission's source, in UTF-8 bytes (or the file's bytes)

# PEP 263: a comment on line 1 or 2 matching this pattern names the file's encoding.
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


class Submission:
    """A submission's source and its provenance; immutable.

    `label` names it in the report; `origin` is what the learner's history records
    (a file's absolute path, "web editor"); `directory` is the folder it came from,
    which no child may read (a classmate's file beside it); `path` is the file, when
    it was one.
    """

    __slots__ = ("source", "label", "origin", "directory", "path")

    def __init__(self, source: str, label: str, *, origin: str | None = None, directory: Path | None = None,
                 path: Path | None = None):
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "origin", origin if origin is not None else label)
        object.__setattr__(self, "directory", Path(directory) if directory is not None else None)
        object.__setattr__(self, "path", Path(path) if path is not None else None)

    def __setattr__(self, name, value):
        raise AttributeError(f"a Submission is immutable ({name})")

    def __repr__(self) -> str:
        return f"Submission({self.label!r}, {len(self.source)} characters, origin={self.origin!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Submission) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    @property
    def filename(self) -> str:
        """The name the program runs under (its tracebacks show it), shown as every face shows a file's
        name (judge.base.escape): a name that is not UTF-8 reads `\\xff.py` in a traceback as in the table."""
        return escape_name(Path(self.label).name) or "submission.py"

    # ------------------------------------------------------------ making one
    @classmethod
    def from_file(cls, path: str | os.PathLike, *, label: str | None = None,
                  directory: Path | None = None) -> "Submission":
        """The file at `path`; a one-line ConfigError naming it when it is missing, too large or not text.

        A file that cannot be read (gone, a broken symbolic link, a directory or not a regular file,
        permission denied, also of a folder on its way) is an `Unreadable`, never an OSError: the
        caller says why in one line. A FIFO or a device is refused before it is opened, so nothing blocks.
        `directory` (default: the file's folder) is what no child may read while it runs.
        """
        path = Path(path)
        data = _read_regular(path)
        resolved = path.resolve()
        return cls.from_bytes(data, label if label is not None else str(path), origin=str(resolved),
                              directory=directory if directory is not None else resolved.parent, path=resolved,
                              named=path)

    @classmethod
    def from_bytes(cls, data: bytes, label: str, *, origin: str | None = None, directory: Path | None = None,
                   path: Path | None = None, named: Path | None = None) -> "Submission":
        """A file's bytes (read here, or by the warm client), decoded and limited as every file is;
        errors name `named` (default: `path`, else the label)."""
        named = named if named is not None else path if path is not None else Path(label)
        if len(data) > MAX_SOURCE_BYTES:
            raise ConfigError(f"the submission is {len(data)} bytes; the limit is {MAX_SOURCE_BYTES}", file=named)
        return cls(decode_source(data, named), label, origin=origin, directory=directory, path=path)

    @classmethod
    def from_text(cls, source: str, label: str = "<source text>", *, origin: str | None = None,
                  directory: Path | None = None, path: Path | None = None) -> "Submission":
        """Source text (an editor's, a notebook's, a request's); a ConfigError when over the limit.

        `path`: the file the text was read from, when another process read it (the warm client).
        """
        if not isinstance(source, str):
            raise ConfigError(f"the source must be text, got {type(source).__name__}")
        size = source_bytes(source)
        if size > MAX_SOURCE_BYTES:
            raise ConfigError(f"the source is {size} bytes; the limit is {MAX_SOURCE_BYTES}")
        return cls(source, label, origin=origin, directory=directory, path=path)


def _read_regular(path: Path) -> bytes:
    """The bytes of the regular file at `path` (at most one more than the size limit); an `Unreadable` saying why
    it cannot be read."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise Unreadable("a broken symbolic link: what it names is gone" if os.path.islink(path)
                         else "submission file not found", file=path) from None
    except OSError as exc:   # EACCES on a folder of its path, ELOOP, ENOTDIR, ENAMETOOLONG
        raise Unreadable(f"cannot read the submission: {_why(exc)}", file=path) from None
    if stat.S_ISDIR(info.st_mode):
        raise Unreadable("is a directory; expected a Python file defining the entry point", file=path)
    if not stat.S_ISREG(info.st_mode):
        raise Unreadable("not a regular file (a pipe, socket or device); expected a Python file", file=path)
    if info.st_size > MAX_SOURCE_BYTES:   # said without reading it all
        raise ConfigError(f"the submission is {info.st_size} bytes; the limit is {MAX_SOURCE_BYTES}", file=path)
    try:
        # O_NONBLOCK: were it swapped for a FIFO since the look above, opening it does not wait for a writer.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise Unreadable("submission file not found (it vanished while being read)", file=path) from None
    except OSError as exc:
        raise Unreadable(f"cannot read the submission: {_why(exc)}", file=path) from None
    try:
        with os.fdopen(descriptor, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):   # the file opened, not the path looked up
                raise Unreadable("not a regular file (a pipe, socket or device); expected a Python file", file=path)
            return file.read(MAX_SOURCE_BYTES + 1)   # one byte more than allowed says it is too large
    except OSError as exc:   # EIO, or EAGAIN from a file swapped for something else
        raise Unreadable(f"cannot read the submission: {_why(exc)}", file=path) from None


def _why(exc: OSError) -> str:
    """An OSError in a few words on one line (its strerror, as `ls` says it)."""
    return exc.strerror or type(exc).__name__


def source_bytes(source: str) -> int:
    """The size a source text counts for against MAX_SOURCE_BYTES: its UTF-8 bytes."""
    return len(source.encode("utf-8", "surrogatepass"))


def decode_source(data: bytes, path: Path | str = "<source>") -> str:
    """Source bytes as Python reads them: UTF-8 unless a PEP 263 coding line says otherwise.

    Every way in (`judge run`, `judge grade`, the warm client) decodes through here, so a file is
    text for one exactly when it is for the others.
    """
    encoding = "utf-8"
    if any(_CODING.match(line) for line in data.splitlines()[:2]):
        import io
        import tokenize

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError as exc:  # an unknown codec in the coding line, or undecodable first lines
            if "unknown encoding" in str(exc):
                raise NotSourceText(f"cannot be decoded: {exc}", file=path) from None
            encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise NotSourceText(f"not {encoding} text (byte {exc.start}): save it as UTF-8 (or declare its encoding "
                            f"in a `# -*- coding: ... -*-` line)", file=path) from None
    except LookupError as exc:
        raise NotSourceText(f"cannot be decoded: {exc}", file=path) from None
    return text[1:] if text.startswith("\ufeff") else text  # a UTF-8 byte-order mark is not code
