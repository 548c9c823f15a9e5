"""Reading YAML with line numbers, and typed field access that collects errors.

Every mapping loaded here remembers the line of each key, so a schema error can
say `problems/x.yaml:12: examples[0].inputs: expected a mapping`. `Fields`
reads one mapping the way a schema would: each accessor checks the type,
records an error (never raises) and returns a usable default, so loading can
report every error at once.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import yaml

from judge.base.errors import ConfigError, ConfigErrors


class Mapping(dict):
    """A dict that knows the source line of itself and of each key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class Sequence(list):
    line: int = 0
    item_lines: list


def plain(value: Any) -> Any:
    """`value` with every `Mapping` and `Sequence` inside it made a plain dict and list (values that
    travel to a child, which knows no judge types)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


# libyaml's parser (when PyYAML has it) keeps marks for line numbers and parses problem files
# several times faster than the pure-Python one: it is most of `judge run`'s own start-up.
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Mapping:
    loader.flatten_mapping(node)
    result = Mapping()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) or key is None:
            raise yaml.constructor.ConstructorError(
                None, None, "mapping keys must be plain scalars", key_node.start_mark)
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> Sequence:
    result = Sequence(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml(path: Path) -> Any:
    """Parse `path`; a missing file or a syntax error becomes a one-line ConfigError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("file not found", file=path) from None
    except IsADirectoryError:
        raise ConfigError("is a directory, expected a YAML file", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read: {exc}", file=path) from None
    try:
        _refuse_aliases(text, path)
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(f"invalid YAML: {what}", file=path, line=line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", file=path) from None


def _refuse_aliases(text: str, path: Path) -> None:
    """Anchors and aliases (`&name`, `*name`, `<<: *name`) are refused: an alias repeats a whole subtree,
    so a few lines can stand for millions of values, and a problem file reads best written out."""
    if "&" not in text and "*" not in text:
        return   # neither can occur: no need to read the events (most files)
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            what = f"alias *{event.anchor}" if isinstance(event, yaml.AliasEvent) else f"anchor &{event.anchor}"
            raise ConfigError(f"YAML anchors and aliases are not allowed (found the {what}); write the value "
                              "out where it is used", file=path, line=event.start_mark.line + 1)


def type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            Mapping: "a mapping", dict: "a mapping", Sequence: "a list",
            list: "a list"}.get(type(value), type(value).__name__)


class Errors:
    """Collects ConfigErrors for one file; `raise_if_any` raises them together."""

    def __init__(self, file: Path):
        self.file = file
        self.items: list[ConfigError] = []

    def add(self, line: int | None, field: str, message: str) -> None:
        self.items.append(ConfigError(message, file=self.file, line=line, field=field))

    def raise_if_any(self) -> None:
        if len(self.items) == 1:
            raise self.items[0]
        if self.items:
            raise ConfigErrors(self.items)


_MISSING = object()


class Fields:
    """Typed, error-collecting access to one YAML mapping at a dotted path."""

    def __init__(self, data: Any, path: str, errors: Errors, line: int = 0):
        self.path = path
        self.errors = errors
        if isinstance(data, Mapping):
            self.data = data
        else:
            if data is not None or path:
                errors.add(line or None, path or "(top level)",
                           f"expected a mapping, got {type_name(data)}")
            self.data = Mapping()
            self.data.line, self.data.key_lines = line, {}
        self.used: set[str] = set()

    def field(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def line(self, key: str | None = None) -> int:
        return self.data.line_of(key) if key else self.data.line

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = None) -> Any:
        self.used.add(key)
        return self.data.get(key, default)

    def error(self, key: str, message: str) -> None:
        self.errors.add(self.line(key), self.field(key), message)

    def get(self, key: str, kind: type | tuple, default: Any = _MISSING,
            what: str | None = None, check: Callable[[Any], str | None] | None = None) -> Any:
        """The value at `key` if it is of `kind`, else record an error."""
        self.used.add(key)
        required = default is _MISSING
        if key not in self.data or self.data[key] is None:
            if required:
                self.errors.add(self.line(), self.field(key), f"missing, expected {what or _kind_name(kind)}")
                return None
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            self.error(key, f"expected {what or _kind_name(kind)}, got {type_name(value)} {_short(value)}".rstrip())
            return None if required else default
        if check is not None:
            problem = check(value)
            if problem:
                self.error(key, problem)
                return None if required else default
        return value

    def sub(self, key: str, required: bool = False) -> "Fields":
        self.used.add(key)
        value = self.data.get(key)
        if value is None and not required:
            value = Mapping()
            value.line, value.key_lines = self.line(key), {}
        return Fields(value, self.field(key), self.errors, self.line(key))

    def unknown(self, allowed: set[str] | None = None) -> None:
        """Record an error for every key that was never read (or not in `allowed`)."""
        known = allowed if allowed is not None else self.used
        for key in self.data:
            if key not in known:
                self.error(key, f"unknown field (known fields: {', '.join(sorted(map(str, known)))})" if known
                           else "unknown field (this mapping takes none)")


def _kind_name(kind: type | tuple) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(type_name(k()) if k not in (Mapping, Sequence) else type_name(k()) for k in kinds)


def _short(value: Any) -> str:
    text = repr(value)
    return f"({text})" if len(text) <= 40 else ""
