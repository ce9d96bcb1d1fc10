"""Read the curated phrase tables (knowledge/phrases/*.yaml): scope phrases, lay terms, terminology words.

A file is a mapping of table name to table. A table is a list of regex fragments, or a list of records whose
fields are declared by the code that reads them. Each file is read once; every table is checked as it is read,
and a table of the wrong shape raises ``PhraseTableError`` naming the file, the table and the entry, so a bad
edit stops the app at start-up instead of changing answers quietly.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

PHRASES_DIR = Path(__file__).resolve().parent / "phrases"

# Field kinds of a record table.
TEXT = "text"  # a non-empty string
REGEX = "regex"  # one regex fragment
REGEXES = "regexes"  # a non-empty list of regex fragments, returned as a tuple
FLAG = "flag"  # true or false


class PhraseTableError(ValueError):
    """A phrase file that cannot be read, or a table or entry of the wrong shape."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses a key given twice in one mapping: YAML keeps the last silently, so a second
    ``outright:`` written into a rule would drop the first list of phrases without a word."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice in one mapping", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


@functools.cache
def _file_read(path: Path) -> Mapping[str, Any]:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)  # a SafeLoader
    except OSError as error:
        raise PhraseTableError(f"{path}: cannot be read: {error}") from error
    except yaml.YAMLError as error:
        raise PhraseTableError(f"{path}: is not valid YAML: {error}") from error
    if not isinstance(data, dict):
        raise PhraseTableError(f"{path}: must be a mapping of table names to tables")
    return data


def _table(path: Path, table: str) -> Any:
    data = _file_read(path)
    if table not in data:
        raise PhraseTableError(f"{path}: table {table!r} is missing")
    return data[table]


def _regex(value: Any, *, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise PhraseTableError(f"{where}: {value!r} is not a regex string")
    try:
        pattern = re.compile(value)
    except re.error as error:
        raise PhraseTableError(f"{where}: {value!r} does not compile: {error}") from error
    # In an alternation, a fragment that matches nothing at all would match every question.
    if pattern.fullmatch(""):
        raise PhraseTableError(f"{where}: {value!r} matches the empty string")
    return value


def _regexes(value: Any, *, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise PhraseTableError(f"{where}: must be a non-empty list of regex strings, not {value!r}")
    return tuple(_regex(entry, where=f"{where}[{i}]") for i, entry in enumerate(value))


def _field(value: Any, *, kind: str, where: str) -> Any:
    if kind == REGEX:
        return _regex(value, where=where)
    if kind == REGEXES:
        return _regexes(value, where=where)
    if kind == TEXT:
        if isinstance(value, str) and value.strip():
            return value
        raise PhraseTableError(f"{where}: {value!r} is not a non-empty string")
    if kind == FLAG:
        if isinstance(value, bool):
            return value
        raise PhraseTableError(f"{where}: {value!r} is not true or false")
    raise ValueError(f"unknown field kind {kind!r}")


def phrases_get(*, path: Path, table: str) -> tuple[str, ...]:
    """Return the regex fragments of ``table`` in ``path``, in file order."""
    return _regexes(_table(path, table), where=f"{path}: {table}")


def phrase_records_get(
    *, path: Path, table: str, fields: Mapping[str, str], defaults: Mapping[str, Any] | None = None
) -> tuple[dict[str, Any], ...]:
    """Return the records of ``table`` in ``path``, in file order, each a dict of ``fields`` (name → kind).

    A field named in ``defaults`` may be left out and takes its default; any other missing field, and any key
    not in ``fields`` (a misspelt field would otherwise be ignored), is an error.
    """
    defaults = defaults or {}
    records = _table(path, table)
    if not isinstance(records, list) or not records:
        raise PhraseTableError(f"{path}: {table}: must be a non-empty list of records, not {records!r}")
    result = []
    for i, record in enumerate(records):
        where = f"{path}: {table}[{i}]"
        if not isinstance(record, dict):
            raise PhraseTableError(f"{where}: {record!r} is not a record of {', '.join(fields)}")
        unknown = sorted(set(record) - set(fields))
        if unknown:
            raise PhraseTableError(f"{where}: unknown key {unknown[0]!r} (expected {', '.join(fields)})")
        missing = [name for name in fields if name not in record and name not in defaults]
        if missing:
            raise PhraseTableError(f"{where}: missing key {missing[0]!r}")
        result.append({
            name: _field(record[name], kind=kind, where=f"{where}.{name}") if name in record else defaults[name]
            for name, kind in fields.items()
        })
    return tuple(result)
