"""Parse corpus files into chunk records, validating everything before anything is written.

Formats:
- ``vbkb``: the whitepaper's chunk schema, a JSON list of ``{entry_id, topic, subtopic?, content, url, type, …}``;
  a record with ``source_id: "system"`` is a version marker and is skipped.
- ``jsonl``: one ``{id, title, url, text}`` document per line, chunked on paragraph boundaries.
- ``markdown``: a folder of ``.md`` files, each with front matter giving at least ``url`` and ``title``.

Every format takes an optional ``checked_on``: the day the record's facts were last checked against its
source, written ``YYYY-MM-DD``, so answers can say how fresh their sources are.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from knowledge.chunking import record_split, text_chunk

FORMATS = ("vbkb", "jsonl", "markdown")

ERR_UNKNOWN_FORMAT = "Unknown format {fmt!r}: use one of auto, vbkb, jsonl, markdown."
ERR_CANNOT_DETECT = "Cannot tell the format of {path}: name it with --format vbkb|jsonl|markdown."
ERR_NOT_FOUND = "{path} does not exist."
ERR_BAD_JSON = "not valid JSON: {error}"
ERR_NOT_LIST = "a vbkb file must hold a JSON list of records"
ERR_NOT_OBJECT = "a record must be a JSON object"
ERR_MISSING = "missing or empty {field!r}"
ERR_NOT_TEXT = "{field!r} must be text"
ERR_URL = "url {url!r} is not an http(s) address"
ERR_DUPLICATE = "entry_id {entry_id!r} appears twice (first at {first})"
ERR_FRONT_MATTER = "no front matter with url and title (a block between '---' lines at the top)"
ERR_EMPTY = "the file holds no records"
ERR_CHECKED_ON = "checked_on {value!r} is not a date written YYYY-MM-DD"
ERR_CHECKED_ON_FUTURE = "checked_on {value} is later than today: facts cannot be checked in the future"

_SCHEMELESS_DOMAIN_RE = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)+([/#?].*)?$", re.IGNORECASE)
_DC_RE = re.compile(r"^\d{4}$")
_ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class CorpusFormatError(ValueError):
    """A corpus file that cannot be ingested; ``location`` names the record or line that broke."""

    def __init__(self, *, path: Path | str, location: str, reason: str) -> None:
        self.path = str(path)
        self.location = location
        self.reason = reason
        super().__init__(f"{self.path}: {location}: {reason}" if location else f"{self.path}: {reason}")


@dataclass(frozen=True)
class ChunkRecord:
    entry_id: str
    content: str
    url: str
    title: str = ""
    topic: str = ""
    subtopic: str = ""
    type: str = "narrative"
    diagnostic_code: str = ""
    term: str = ""
    aliases: tuple[str, ...] = field(default_factory=tuple)
    checked_on: datetime.date | None = None
    origin: str = ""  # file and record number, for error messages


@dataclass(frozen=True)
class ParsedCorpus:
    records: tuple[ChunkRecord, ...]
    skipped: int


def url_normalise(url: str) -> str | None:
    """Return the url as an http(s) address, adding https:// to a bare domain; None if it is not web."""
    url = url.strip()
    scheme = urlsplit(url).scheme.lower()
    if scheme in ("http", "https"):
        return url if urlsplit(url).netloc else None
    if not scheme or _SCHEMELESS_DOMAIN_RE.match(url):
        return f"https://{url}" if _SCHEMELESS_DOMAIN_RE.match(url) else None
    return None


def format_detect(path: Path) -> str:
    if path.is_dir():
        return "markdown"
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return "jsonl"
    if suffix == ".json":
        return "vbkb"
    if suffix == ".md":
        return "markdown"
    raise CorpusFormatError(path=path, location="", reason=ERR_CANNOT_DETECT.format(path=path))


def corpus_parse(*, paths: Iterable[Path], fmt: str = "auto", max_chars: int = 1000) -> ParsedCorpus:
    """Parse every file; raise CorpusFormatError at the first bad record, before anything is written."""
    if fmt != "auto" and fmt not in FORMATS:
        raise CorpusFormatError(path="", location="", reason=ERR_UNKNOWN_FORMAT.format(fmt=fmt))
    records: list[ChunkRecord] = []
    skipped = 0
    seen: dict[str, str] = {}
    for path in paths:
        if not path.exists():
            raise CorpusFormatError(path=path, location="", reason=ERR_NOT_FOUND.format(path=path))
        file_format = format_detect(path) if fmt == "auto" else fmt
        parser = {"vbkb": _vbkb_parse, "jsonl": _jsonl_parse, "markdown": _markdown_parse}[file_format]
        parsed, file_skipped = parser(path=path, max_chars=max_chars)
        skipped += file_skipped
        for record in parsed:
            if record.entry_id in seen:
                raise CorpusFormatError(
                    path=path,
                    location=record.origin,
                    reason=ERR_DUPLICATE.format(entry_id=record.entry_id, first=seen[record.entry_id]),
                )
            seen[record.entry_id] = record.origin
            records.append(record)
    if not records:
        raise CorpusFormatError(path=", ".join(str(p) for p in paths), location="", reason=ERR_EMPTY)
    return ParsedCorpus(records=tuple(records), skipped=skipped)


def _text(value: object, *, name: str, path: Path, location: str, required: bool = True) -> str:
    if value is None or value == "":
        if required:
            raise CorpusFormatError(path=path, location=location, reason=ERR_MISSING.format(field=name))
        return ""
    if not isinstance(value, str):
        raise CorpusFormatError(path=path, location=location, reason=ERR_NOT_TEXT.format(field=name))
    value = value.strip()
    if required and not value:
        raise CorpusFormatError(path=path, location=location, reason=ERR_MISSING.format(field=name))
    return value


def _url(value: object, *, path: Path, location: str) -> str:
    raw = _text(value, name="url", path=path, location=location)
    url = url_normalise(raw)
    if url is None:
        raise CorpusFormatError(path=path, location=location, reason=ERR_URL.format(url=raw))
    return url


def _checked_on(value: object, *, path: Path, location: str) -> datetime.date | None:
    """Return the record's checked-on date; a YAML front matter date arrives already parsed."""
    if value is None or value == "":
        return None
    day = None
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        day = value
    elif isinstance(value, str) and _ISO_DATE_RE.match(value.strip()):
        with contextlib.suppress(ValueError):  # 2024-02-30 has the shape but is no date
            day = datetime.date.fromisoformat(value.strip())
    if day is None:
        raise CorpusFormatError(path=path, location=location, reason=ERR_CHECKED_ON.format(value=value))
    if day > datetime.date.today():
        raise CorpusFormatError(path=path, location=location, reason=ERR_CHECKED_ON_FUTURE.format(value=day))
    return day


def _split(record: ChunkRecord, *, max_chars: int) -> Iterator[ChunkRecord]:
    """Split an overlong record into parts that fit the model's window, keeping entry_id as a prefix."""
    parts = record_split(content=record.content, max_chars=max_chars)
    if len(parts) == 1:
        yield record
        return
    for number, part in enumerate(parts, start=1):
        yield ChunkRecord(**{**record.__dict__, "entry_id": f"{record.entry_id}#{number}", "content": part})


def _vbkb_parse(*, path: Path, max_chars: int) -> tuple[list[ChunkRecord], int]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CorpusFormatError(path=path, location=_json_location(exc), reason=ERR_BAD_JSON.format(error=exc)) from exc
    if not isinstance(data, list):
        raise CorpusFormatError(path=path, location="", reason=ERR_NOT_LIST)
    records: list[ChunkRecord] = []
    skipped = 0
    for number, item in enumerate(data, start=1):
        location = f"record {number}"
        if not isinstance(item, dict):
            raise CorpusFormatError(path=path, location=location, reason=ERR_NOT_OBJECT)
        if item.get("source_id") == "system":
            skipped += 1
            continue
        entry_id = _text(item.get("entry_id"), name="entry_id", path=path, location=location)
        location = f"record {number} ({entry_id})"
        aliases = item.get("aliases") or []
        if isinstance(aliases, str):
            aliases = [aliases]
        dc = str(item.get("diagnostic_code") or "").strip()
        record = ChunkRecord(
            entry_id=entry_id,
            content=_text(item.get("content"), name="content", path=path, location=location),
            url=_url(item.get("url"), path=path, location=location),
            title=_text(item.get("title") or item.get("original_heading"), name="title", path=path,
                        location=location, required=False)[:300],
            topic=_text(item.get("topic"), name="topic", path=path, location=location, required=False),
            subtopic=_text(item.get("subtopic"), name="subtopic", path=path, location=location, required=False)[:200],
            type=(_text(item.get("type"), name="type", path=path, location=location, required=False) or "narrative")[:40],
            diagnostic_code=dc if _DC_RE.match(dc) else "",
            term=_text(item.get("term"), name="term", path=path, location=location, required=False),
            aliases=tuple(str(a).strip() for a in aliases if str(a).strip()),
            checked_on=_checked_on(item.get("checked_on"), path=path, location=location),
            origin=location,
        )
        records.extend(_split(record, max_chars=max_chars))
    return records, skipped


def _jsonl_parse(*, path: Path, max_chars: int) -> tuple[list[ChunkRecord], int]:
    records: list[ChunkRecord] = []
    skipped = 0
    with path.open(encoding="utf-8") as handle:
        for line_number, line in enumerate(handle, start=1):
            location = f"line {line_number}"
            if not line.strip():
                skipped += 1
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CorpusFormatError(path=path, location=location, reason=ERR_BAD_JSON.format(error=exc)) from exc
            if not isinstance(item, dict):
                raise CorpusFormatError(path=path, location=location, reason=ERR_NOT_OBJECT)
            doc_id = _text(item.get("id"), name="id", path=path, location=location)
            location = f"line {line_number} ({doc_id})"
            title = _text(item.get("title"), name="title", path=path, location=location, required=False)
            url = _url(item.get("url"), path=path, location=location)
            text = _text(item.get("text"), name="text", path=path, location=location)
            checked_on = _checked_on(item.get("checked_on"), path=path, location=location)
            for number, part in enumerate(text_chunk(text=text, title=title, max_chars=max_chars), start=1):
                records.append(
                    ChunkRecord(entry_id=f"{doc_id}-{number}", content=part, url=url, title=title[:300],
                                topic=_text(item.get("topic"), name="topic", path=path, location=location,
                                            required=False),
                                type="rating_table" if _looks_like_table(part) else "narrative",
                                checked_on=checked_on, origin=location)
                )
    return records, skipped


def _markdown_parse(*, path: Path, max_chars: int) -> tuple[list[ChunkRecord], int]:
    files = sorted(path.rglob("*.md")) if path.is_dir() else [path]
    records: list[ChunkRecord] = []
    for file in files:
        text = file.read_text(encoding="utf-8")
        location = f"file {file.name}"
        match = re.match(r"^---\s*\n(.*?)\n---\s*\n(.*)$", text, re.DOTALL)
        if not match:
            raise CorpusFormatError(path=file, location=location, reason=ERR_FRONT_MATTER)
        try:
            meta = yaml.safe_load(match.group(1)) or {}
        except yaml.YAMLError as exc:
            raise CorpusFormatError(path=file, location=location, reason=f"front matter is not valid YAML: {exc}") from exc
        if not isinstance(meta, dict) or not meta.get("url") or not meta.get("title"):
            raise CorpusFormatError(path=file, location=location, reason=ERR_FRONT_MATTER)
        url = _url(meta.get("url"), path=file, location=location)
        title = _text(str(meta["title"]), name="title", path=file, location=location)
        body = match.group(2).strip()
        if not body:
            raise CorpusFormatError(path=file, location=location, reason=ERR_MISSING.format(field="content"))
        checked_on = _checked_on(meta.get("checked_on"), path=file, location=location)
        stem = str(meta.get("id") or file.relative_to(path).with_suffix("") if path.is_dir() else file.stem)
        for number, part in enumerate(text_chunk(text=body, title=title, max_chars=max_chars), start=1):
            records.append(
                ChunkRecord(entry_id=f"{stem}-{number}", content=part, url=url, title=title[:300],
                            topic=str(meta.get("topic") or ""), subtopic=str(meta.get("subtopic") or ""),
                            type=str(meta.get("type") or "narrative"), checked_on=checked_on, origin=location)
            )
    return records, 0


def _looks_like_table(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) >= 3 and sum(" | " in line for line in lines) >= len(lines) // 2


def _json_location(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"line {exc.lineno}, column {exc.colno}"
    return ""
