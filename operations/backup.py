"""Backups of reviewers' work: reviewed answers with their history, and the topics and entities people edited.

The file holds natural keys only (topic slugs, entity type and value, source URLs, chunk entry ids), never
database ids, vectors or the corpus: the corpus is ingested again from the bundled files, and importing
recomputes each answer's question vector with the configured embedding model.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from knowledge.embeddings import embedding_provider_get
from knowledge.models import AnsweredQuestion, Chunk, Entity, QuestionEntity, QuestionSource, QuestionTopic, Source, Topic
from knowledge.selectors import reference_cache_clear
from knowledge.services import seed_edited

FORMAT = "veterans-ai-reviews"
VERSION = 1
RESTORED_REASON = "restored from a backup"

ERR_NOT_JSON = "The backup is not valid JSON ({error}); nothing was imported."
ERR_NOT_OBJECT = "The backup is not a JSON object; nothing was imported."
ERR_FORMAT = "Not a reviews backup: format is {found}, expected “{expected}”; nothing was imported."
ERR_VERSION = "Backup version {found} is not supported (this code reads version {expected}); nothing was imported."
ERR_SECTION = "The backup has no “{section}” list; nothing was imported."
ERR_RECORD_NOT_OBJECT = "{record} is not a JSON object; nothing was imported."
ERR_FIELD_MISSING = "{record}: the field “{field}” is missing; nothing was imported."
ERR_FIELD_TYPE = "{record}: the field “{field}” should be {kind}, not {found}; nothing was imported."
ERR_RECORD_REFUSED = "{record}: the database refused it ({error}); nothing was imported."


class BackupInvalid(ValueError):
    """A backup that cannot be imported; ``message`` names what is wrong and where."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ---- what a record holds: field → kind ----

TEXT, NUMBER, INTEGER, BOOLEAN, LIST, OBJECT = "text", "a number", "an integer", "true or false", "a list", "an object"
WHEN, MAYBE_WHEN = "a date and time with its UTC offset", "a date and time with its UTC offset, or null"
MAYBE_TEXT, MAYBE_INTEGER = "text or null", "an integer or null"

# The fields a review decision changes: kept on the answer and on each history record.
REVIEWED_FIELDS: dict[str, str] = {
    "answer": TEXT, "warning": TEXT, "citations": LIST, "verification": OBJECT, "verified": BOOLEAN,
    "verified_by": MAYBE_TEXT, "verified_at": MAYBE_WHEN, "flagged": BOOLEAN, "flagged_by": MAYBE_TEXT,
    "flagged_at": MAYBE_WHEN, "corrected_by": MAYBE_TEXT, "corrected_at": MAYBE_WHEN, "review_note": TEXT,
    "review_version": INTEGER, "needs_review": BOOLEAN, "stale": BOOLEAN, "current": BOOLEAN,
}
ANSWER_FIELDS: dict[str, str] = {
    "question": TEXT, "question_hash": TEXT, "gate_key": TEXT, "intent_words": TEXT, "created_at": WHEN,
    "confidence": NUMBER, "retrieval_score": NUMBER, "retrieved": LIST, "weak_retrieval": BOOLEAN,
    "refused": BOOLEAN, "refusal_reason": TEXT, "suggestions": LIST, "model": TEXT, "routing_reason": TEXT,
    "embedding_model": TEXT, "off_record": BOOLEAN, **REVIEWED_FIELDS,
    "topics": LIST, "entities": LIST, "sources": LIST, "history": LIST,
}
HISTORY_FIELDS: dict[str, str] = {
    "history_date": WHEN, "history_user": MAYBE_TEXT, "history_change_reason": MAYBE_TEXT, "history_type": TEXT,
    **REVIEWED_FIELDS,
}
EDGE_FIELDS: dict[str, dict[str, str]] = {
    "topics": {"slug": TEXT, "score": NUMBER},
    "entities": {"type": TEXT, "value": TEXT},
    "sources": {"url": TEXT, "chunk": MAYBE_TEXT, "citation_number": MAYBE_INTEGER},
}
TOPIC_FIELDS: dict[str, str] = {"slug": TEXT, "name": TEXT, "keywords": LIST, "updated_at": WHEN}
ENTITY_FIELDS: dict[str, str] = {
    "type": TEXT, "value": TEXT, "name": TEXT, "aliases": LIST, "definition": TEXT, "source": MAYBE_TEXT,
    "updated_at": WHEN,
}
USER_FIELDS = ("verified_by", "flagged_by", "corrected_by")



# ---- export ----

def reviews_export() -> dict[str, Any]:
    """Return the reviewers' work as a backup: every answer a reviewer verified, flagged, corrected or changed,
    with its edges and its history made by people, and the topics and entities people edited."""
    return {
        "format": FORMAT, "version": VERSION, "exported_at": timezone.now().isoformat(),
        "topics": [_topic_dict(topic) for topic in Topic.objects.order_by("slug") if seed_edited(topic)],
        "entities": [_entity_dict(entity) for entity in Entity.objects.select_related("source").order_by("type", "value")
                     if seed_edited(entity)],
        "answers": _answers_export(),
    }


def _topic_dict(topic: Topic) -> dict[str, Any]:
    return {"slug": topic.slug, "name": topic.name, "keywords": list(topic.keywords),
            "updated_at": topic.updated_at.isoformat()}


def _entity_dict(entity: Entity) -> dict[str, Any]:
    return {"type": entity.type, "value": entity.value, "name": entity.name, "aliases": list(entity.aliases),
            "definition": entity.definition, "source": entity.source.url if entity.source else None,
            "updated_at": entity.updated_at.isoformat()}


def _reviewed_answers():
    by_people = AnsweredQuestion.history.filter(history_user__isnull=False).values("id")
    return (AnsweredQuestion.objects
            .filter(Q(verified=True) | Q(flagged=True) | Q(corrected_at__isnull=False) | Q(id__in=by_people))
            .defer("question_embedding", "answer_embedding", "trace")
            .select_related("verified_by", "flagged_by", "corrected_by")
            .order_by("created_at", "id"))


def _answers_export() -> list[dict[str, Any]]:
    rows = list(_reviewed_answers())
    ids = [row.id for row in rows]
    edges = _edges_export(ids)
    history = _history_export(ids)
    return [{**_answer_dict(row), **{name: edges[name][row.id] for name in EDGE_FIELDS}, "history": history[row.id]}
            for row in rows]


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _reviewed_dict(row) -> dict[str, Any]:
    """The reviewed fields of an answer or of one of its history records, users by username."""
    values = {name: getattr(row, name) for name in REVIEWED_FIELDS if name not in USER_FIELDS}
    values.update({name: _username(getattr(row, name)) for name in USER_FIELDS})
    values.update({name: _when(values[name]) for name in ("verified_at", "flagged_at", "corrected_at")})
    return values


def _answer_dict(row: AnsweredQuestion) -> dict[str, Any]:
    plain = [name for name, kind in ANSWER_FIELDS.items() if name not in REVIEWED_FIELDS and kind != LIST]
    values = {name: getattr(row, name) for name in plain}
    return {**values, "created_at": row.created_at.isoformat(), "retrieved": row.retrieved,
            "suggestions": row.suggestions, **_reviewed_dict(row)}


def _edges_export(ids: Sequence[int]) -> dict[str, dict[int, list[dict[str, Any]]]]:
    edges: dict[str, dict[int, list[dict[str, Any]]]] = {name: defaultdict(list) for name in EDGE_FIELDS}
    for question_id, slug, score in (QuestionTopic.objects.filter(question_id__in=ids).order_by("-score", "id")
                                     .values_list("question_id", "topic__slug", "score")):
        edges["topics"][question_id].append({"slug": slug, "score": score})
    for question_id, kind, value in (QuestionEntity.objects.filter(question_id__in=ids).order_by("id")
                                     .values_list("question_id", "entity__type", "entity__value")):
        edges["entities"][question_id].append({"type": kind, "value": value})
    for question_id, url, entry_id, number in (QuestionSource.objects.filter(question_id__in=ids).order_by("id")
                                               .values_list("question_id", "source__url", "chunk__entry_id",
                                                            "citation_number")):
        edges["sources"][question_id].append({"url": url, "chunk": entry_id, "citation_number": number})
    return edges


def _history_export(ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    records = (AnsweredQuestion.history.filter(id__in=ids, history_user__isnull=False)
               .select_related("history_user", "verified_by", "flagged_by", "corrected_by")
               .order_by("history_date", "history_id"))
    history: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        history[record.id].append({
            "history_date": record.history_date.isoformat(), "history_user": _username(record.history_user),
            "history_change_reason": record.history_change_reason, "history_type": record.history_type,
            **_reviewed_dict(record),
        })
    return history


# ---- checking a backup ----

def backup_parse(*, text: str) -> dict[str, Any]:
    """Return the backup in ``text``, or raise BackupInvalid when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BackupInvalid(ERR_NOT_JSON.format(error=exc)) from exc


def backup_validate(*, data: object) -> None:
    """Raise BackupInvalid naming the first thing wrong: format, version, a missing list, a record's field."""
    if not isinstance(data, dict):
        raise BackupInvalid(ERR_NOT_OBJECT)
    if data.get("format") != FORMAT:
        raise BackupInvalid(ERR_FORMAT.format(found=json.dumps(data.get("format")), expected=FORMAT))
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise BackupInvalid(ERR_VERSION.format(found=json.dumps(data.get("version")), expected=VERSION))
    for section in ("topics", "entities", "answers"):
        if not isinstance(data.get(section), list):
            raise BackupInvalid(ERR_SECTION.format(section=section))
    for index, record in enumerate(data["topics"]):
        _record_check(record, TOPIC_FIELDS, name=f"topics[{index}]")
    for index, record in enumerate(data["entities"]):
        _record_check(record, ENTITY_FIELDS, name=f"entities[{index}]")
    for index, record in enumerate(data["answers"]):
        _answer_check(record, name=_answer_name(index, record))


def _answer_name(index: int, record: object) -> str:
    question = record.get("question") if isinstance(record, dict) else None
    return f"answers[{index}] (“{question[:60]}”)" if isinstance(question, str) else f"answers[{index}]"


def _answer_check(record: object, *, name: str) -> None:
    _record_check(record, ANSWER_FIELDS, name=name)
    for section, fields in EDGE_FIELDS.items():
        for index, edge in enumerate(record[section]):
            _record_check(edge, fields, name=f"{name} {section}[{index}]")
    for index, entry in enumerate(record["history"]):
        _record_check(entry, HISTORY_FIELDS, name=f"{name} history[{index}]")


def _kind_ok(value: object, kind: str) -> bool:
    if value is None:
        return kind.endswith("or null")
    if kind in (WHEN, MAYBE_WHEN):
        return isinstance(value, str) and _parsed(value) is not None
    if kind == NUMBER:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind in (INTEGER, MAYBE_INTEGER):
        return isinstance(value, int) and not isinstance(value, bool)
    expected = {TEXT: str, MAYBE_TEXT: str, BOOLEAN: bool, LIST: list, OBJECT: dict}[kind]
    return isinstance(value, expected)


def _record_check(record: object, fields: Mapping[str, str], *, name: str) -> None:
    if not isinstance(record, dict):
        raise BackupInvalid(ERR_RECORD_NOT_OBJECT.format(record=name))
    for field, kind in fields.items():
        if field not in record:
            raise BackupInvalid(ERR_FIELD_MISSING.format(record=name, field=field))
        if not _kind_ok(record[field], kind):
            raise BackupInvalid(ERR_FIELD_TYPE.format(record=name, field=field, kind=kind,
                                                      found=json.dumps(record[field])[:40]))


def _parsed(value: str | None) -> datetime | None:
    """Return the aware datetime ``value`` names; None when there is none (a time without offset is none)."""
    if value is None:
        return None
    try:
        parsed = parse_datetime(value)
    except ValueError:
        return None
    return parsed if parsed is not None and parsed.tzinfo is not None else None


# ---- import ----

@dataclass(frozen=True)
class ImportResult:
    answers_created: int = 0
    answers_updated: int = 0
    answers_kept: int = 0  # the database holds the same review, or a newer one
    history_created: int = 0
    topics_changed: int = 0
    entities_changed: int = 0
    chunks_missing: int = 0  # citations whose chunk is not in the corpus any more: kept as text, chunk null


def reviews_import(*, data: dict[str, Any]) -> ImportResult:
    """Restore a backup made by ``reviews_export``, in one transaction; raise BackupInvalid and write nothing
    when it is malformed.

    Idempotent: an answer is matched on its question hash and creation time (or answer text), and one whose
    review here is as new or newer (review_version, then the decision's time) is left as it is; history
    records already here (same time) are not added twice. An edited topic or entity is written unless it was
    edited here later.
    """
    backup_validate(data=data)
    vectors, model_name = _question_vectors(data["answers"])
    counts: Counter[str] = Counter()
    with transaction.atomic():
        for index, record in enumerate(data["topics"]):
            counts["topics_changed"] += _guarded(f"topics[{index}]", _topic_restore, record)
        for index, record in enumerate(data["entities"]):
            counts["entities_changed"] += _guarded(f"entities[{index}]", _entity_restore, record)
        users = _users_get(data["answers"])
        for index, record in enumerate(data["answers"]):
            vector = vectors.get(record["question"])
            counts.update(_guarded(_answer_name(index, record), _answer_restore, record, users=users,
                                   vector=vector, model_name=model_name if vector is not None else ""))
    reference_cache_clear()  # topic keywords and the glossary are cached per process
    return ImportResult(**counts)


def _guarded(name: str, restore, record: dict[str, Any], **kwargs):
    """Run one record's restore in a savepoint; a row the database refuses names its record."""
    try:
        with transaction.atomic():
            return restore(record, **kwargs)
    except (DatabaseError, ValueError) as exc:
        raise BackupInvalid(ERR_RECORD_REFUSED.format(record=name, error=str(exc).strip().splitlines()[0])) from exc


def _question_vectors(records: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """Embed the questions that had a vector, before any transaction opens (the model may be a remote one)."""
    questions = sorted({r["question"] for r in records if r["embedding_model"]})
    if not questions:
        return {}, ""
    provider = embedding_provider_get()
    return dict(zip(questions, provider.embed(questions), strict=True)), provider.model_name


def _users_get(records: Iterable[dict[str, Any]]) -> dict[str, int]:
    names = {r[f] for r in records for f in USER_FIELDS if r[f]}
    names |= {h[f] for r in records for h in r["history"] for f in (*USER_FIELDS, "history_user") if h[f]}
    user_model = get_user_model()
    return dict(user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__in": names})
                .values_list(user_model.USERNAME_FIELD, "id"))


def _edited_row_restore(row: Topic | Entity, values: Mapping[str, Any], *, updated_at: str) -> int:
    """Write a person's edit to a topic or entity unless it holds these values already or was edited here
    after the backup was made. Return 1 when written."""
    if row.pk is not None and all(getattr(row, name) == value for name, value in values.items()):
        return 0
    if row.pk is not None and seed_edited(row) and row.updated_at > _parsed(updated_at):
        return 0
    for name, value in values.items():
        setattr(row, name, value)
    row._change_reason = RESTORED_REASON
    row.save()
    return 1


def _topic_restore(record: dict[str, Any]) -> int:
    topic = Topic.objects.filter(slug=record["slug"]).first() or Topic(slug=record["slug"])
    return _edited_row_restore(topic, {"name": record["name"], "keywords": record["keywords"]},
                               updated_at=record["updated_at"])


def _entity_restore(record: dict[str, Any]) -> int:
    key = {"type": record["type"], "value": record["value"]}
    entity = Entity.objects.filter(**key).first() or Entity(**key)
    source_id = Source.objects.filter(url=record["source"]).values_list("id", flat=True).first()
    values = {"name": record["name"], "aliases": record["aliases"], "definition": record["definition"],
              "source_id": source_id}
    return _edited_row_restore(entity, values, updated_at=record["updated_at"])


def _answer_match(record: dict[str, Any]) -> AnsweredQuestion | None:
    rows = (AnsweredQuestion.objects.defer("question_embedding", "answer_embedding")
            .filter(question_hash=record["question_hash"]).order_by("-current", "-created_at"))
    return (rows.filter(created_at=_parsed(record["created_at"])).first()
            or rows.filter(answer=record["answer"], refused=record["refused"]).first())


def _decided(values: Mapping[str, Any]) -> tuple[int, float]:
    """How new a review is: its version, then the time of its latest decision."""
    times = [_parsed(t) if isinstance(t, str) else t for t in (values["verified_at"], values["flagged_at"],
                                                              values["corrected_at"])]
    return values["review_version"], max((t.timestamp() for t in times if t is not None), default=0.0)


def _answer_restore(record: dict[str, Any], *, users: Mapping[str, int], vector, model_name: str) -> Counter[str]:
    row = _answer_match(record)
    counts: Counter[str] = Counter()
    if row is None:
        row = _answer_create(record, users=users, vector=vector, model_name=model_name)
        counts["answers_created"] += 1
    elif _decided(vars(row)) >= _decided(record):
        counts["answers_kept"] += 1
    else:
        _answer_update(row, record, users=users, vector=vector, model_name=model_name)
        counts["answers_updated"] += 1
    if counts["answers_created"] or counts["answers_updated"]:
        counts["chunks_missing"] += _edges_restore(row, record)
    counts["history_created"] += _history_restore(row, record["history"], users=users)
    return counts


def _reviewed_values(record: Mapping[str, Any], *, users: Mapping[str, int]) -> dict[str, Any]:
    values = {name: record[name] for name in REVIEWED_FIELDS if name not in USER_FIELDS}
    values.update({f"{name}_id": users.get(record[name]) if record[name] else None for name in USER_FIELDS})
    values.update({name: _parsed(record[name]) for name in ("verified_at", "flagged_at", "corrected_at")})
    return values


def _answer_values(record: Mapping[str, Any], *, users: Mapping[str, int]) -> dict[str, Any]:
    plain = [name for name in ANSWER_FIELDS
             if name not in REVIEWED_FIELDS and name not in (*EDGE_FIELDS, "history", "created_at", "embedding_model")]
    return {**{name: record[name] for name in plain}, **_reviewed_values(record, users=users)}


def _cache_make_room(row_values: Mapping[str, Any], *, exclude: int | None) -> bool:
    """Whether a restored answer may be its question's current one: not when a reviewed answer holds the
    question here; an unreviewed one is taken out of the cache for it."""
    if not row_values["current"] or row_values["refused"]:
        return row_values["current"]
    other = (AnsweredQuestion.objects.select_for_update().defer("question_embedding", "answer_embedding")
             .filter(question_hash=row_values["question_hash"], current=True, refused=False)
             .exclude(id=exclude).first())
    if other is None:
        return True
    if other.verified or other.flagged:
        return False
    other.current = False
    other._change_reason = RESTORED_REASON
    other.save(update_fields=["current", "updated_at"])
    return True


def _answer_create(record: Mapping[str, Any], *, users: Mapping[str, int], vector, model_name: str) -> AnsweredQuestion:
    values = _answer_values(record, users=users)
    values["current"] = _cache_make_room(values, exclude=None)
    row = AnsweredQuestion(**values, question_embedding=vector, embedding_model=model_name)
    row._change_reason = RESTORED_REASON
    row.save()
    # created_at is set on insert (auto_now_add): the original one is the answer's identity across backups.
    AnsweredQuestion.objects.filter(id=row.id).update(created_at=_parsed(record["created_at"]))
    row.created_at = _parsed(record["created_at"])
    return row


def _answer_update(row: AnsweredQuestion, record: Mapping[str, Any], *, users: Mapping[str, int], vector,
                   model_name: str) -> None:
    values = _reviewed_values(record, users=users)
    values["current"] = _cache_make_room({**values, "question_hash": row.question_hash, "refused": row.refused},
                                         exclude=row.id)
    if not row.embedding_model and vector is not None:
        values.update(question_embedding=vector, embedding_model=model_name)
    for name, value in values.items():
        setattr(row, name, value)
    row._change_reason = RESTORED_REASON
    row.save(update_fields=[*values, "updated_at"])


def _edges_restore(row: AnsweredQuestion, record: Mapping[str, Any]) -> int:
    """Write the answer's topics, entities and sources by natural key; return how many cited chunks are
    missing (their citations keep their stored text, the edge its source, with no chunk)."""
    topics = dict(Topic.objects.filter(slug__in=[e["slug"] for e in record["topics"]]).values_list("slug", "id"))
    entities = {(t, v): pk for pk, t, v in Entity.objects.filter(
        value__in=[e["value"] for e in record["entities"]]).values_list("id", "type", "value")}
    sources = dict(Source.objects.filter(url__in=[e["url"] for e in record["sources"]]).values_list("url", "id"))
    chunks = dict(Chunk.objects.filter(entry_id__in=[e["chunk"] for e in record["sources"] if e["chunk"]])
                  .values_list("entry_id", "id"))
    for model in (QuestionTopic, QuestionEntity, QuestionSource):
        model.objects.filter(question=row).delete()
    QuestionTopic.objects.bulk_create([QuestionTopic(question=row, topic_id=topics[e["slug"]], score=e["score"])
                                       for e in record["topics"] if e["slug"] in topics], ignore_conflicts=True)
    QuestionEntity.objects.bulk_create([QuestionEntity(question=row, entity_id=entities[(e["type"], e["value"])])
                                        for e in record["entities"] if (e["type"], e["value"]) in entities],
                                       ignore_conflicts=True)
    cited = [e for e in record["sources"] if e["url"] in sources]
    QuestionSource.objects.bulk_create([QuestionSource(question=row, source_id=sources[e["url"]],
                                                       chunk_id=chunks.get(e["chunk"]),
                                                       citation_number=e["citation_number"]) for e in cited],
                                       ignore_conflicts=True)
    return sum(1 for e in record["sources"] if e["chunk"] and e["chunk"] not in chunks)


def _history_restore(row: AnsweredQuestion, entries: Sequence[Mapping[str, Any]], *, users: Mapping[str, int]) -> int:
    """Add the history records made by people that this answer does not have yet (same time); the fields a
    record does not carry are the answer's own."""
    history = AnsweredQuestion.history.model
    here = set(history.objects.filter(id=row.id).values_list("history_date", flat=True))
    tracked = [f.attname for f in history._meta.fields if not f.name.startswith("history_")]
    base = {name: getattr(row, name) for name in tracked}
    new = [
        history(**{**base, **_reviewed_values(entry, users=users)}, history_date=_parsed(entry["history_date"]),
                history_user_id=users.get(entry["history_user"]) if entry["history_user"] else None,
                history_change_reason=entry["history_change_reason"], history_type=entry["history_type"])
        for entry in entries if _parsed(entry["history_date"]) not in here
    ]
    history.objects.bulk_create(new)
    return len(new)
