"""Writes to the knowledge base: seeding the graph, ingesting corpora, embedding chunks."""

from __future__ import annotations

import csv
import hashlib
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from knowledge.corpus_formats import ChunkRecord, corpus_parse
from knowledge.embeddings import embedding_provider_get
from knowledge.extraction import BENEFITS, DEFAULT_TOPICS, entities_extract, topics_classify
from knowledge.models import Chunk, ChunkEmbedding, ChunkEntity, Entity, Source, Topic

logger = logging.getLogger(__name__)

SEED_DIR = Path(__file__).resolve().parent / "seed"
BUNDLED_CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
GENERAL_TOPIC = ("general", "General VA benefits")
WHITELISTED_DOMAINS = ("va.gov", "ecfr.gov")

ProgressCallback = Callable[[int], None]


@dataclass(frozen=True)
class IngestSummary:
    added: int
    updated: int
    unchanged: int
    skipped: int
    to_embed: int

    def line(self) -> str:
        return (
            f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged, {self.skipped} skipped; "
            f"{self.to_embed} embedded"
        )


def content_hash(record: ChunkRecord) -> str:
    payload = [record.title, record.content, record.url, record.topic, record.subtopic, record.type,
               record.diagnostic_code, record.term, list(record.aliases)]
    return hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode()).hexdigest()


def embedding_text(*, title: str, content: str) -> str:
    """Return the text that is embedded: the title first (measured: +4 points of top-1 agreement)."""
    return f"{title}: {content}" if title else content


def domain_whitelisted(domain: str) -> bool:
    domain = domain.lower()
    allowed = {*WHITELISTED_DOMAINS, *settings.URL_WHITELIST_EXTRA}
    return any(domain == d or domain.endswith(f".{d}") for d in allowed)


def graph_seed() -> None:
    """Create the topics, diagnostic codes, VA forms and benefits the graph starts with (idempotent)."""
    topics = [Topic(slug=slug, name=spec["name"], keywords=list(spec["keywords"])) for slug, spec in DEFAULT_TOPICS.items()]
    topics.append(Topic(slug=GENERAL_TOPIC[0], name=GENERAL_TOPIC[1], keywords=[]))
    Topic.objects.bulk_create(topics, update_conflicts=True, unique_fields=["slug"], update_fields=["name", "keywords"])

    entities: list[Entity] = []
    with (SEED_DIR / "diagnostic_codes.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            entities.append(Entity(type=Entity.Type.DC_CODE, value=row["code"], name=row["name"]))
    forms_file = SEED_DIR / "va_forms.json"
    if forms_file.exists():
        for form in json.loads(forms_file.read_text(encoding="utf-8")):
            entities.append(Entity(type=Entity.Type.VA_FORM, value=form["number"].upper(), name=form["name"][:255]))
    for slug, names in BENEFITS.items():
        entities.append(Entity(type=Entity.Type.BENEFIT, value=slug, name=names[0], aliases=list(names[1:])))
    Entity.objects.bulk_create(
        entities, update_conflicts=True, unique_fields=["type", "value"], update_fields=["name", "aliases"]
    )


def bundled_corpus_paths() -> list[Path]:
    return sorted(BUNDLED_CORPUS_DIR.glob("*.json"))


def corpus_ingest(
    *, paths: Sequence[Path], fmt: str = "auto", progress: ProgressCallback | None = None
) -> IngestSummary:
    """Ingest corpus files all or nothing, then embed what is new or changed.

    Parsing validates every record before a row is written; the writes run in one transaction; embedding
    runs as Celery tasks after the commit, so a failed embedding leaves consistent chunks that the next run
    embeds (unchanged content with the same model is never embedded twice).
    """
    parsed = corpus_parse(paths=paths, fmt=fmt, max_chars=settings.CHUNK_MAX_CHARS)
    graph_seed()
    with transaction.atomic():
        counts, changed_ids = _records_write(parsed.records)
        pending = chunks_needing_embedding(chunk_ids=None)
        transaction.on_commit(partial(chunks_embed_enqueue, chunk_ids=pending, progress=progress))
    return IngestSummary(skipped=parsed.skipped, to_embed=len(pending), **counts)


def _records_write(records: Sequence[ChunkRecord]) -> tuple[dict[str, int], list[int]]:
    topics = {t.slug: t for t in Topic.objects.all()}
    sources = _sources_upsert(records)
    existing = {row[0]: row[1:] for row in Chunk.objects.values_list("entry_id", "id", "content_hash")}

    new: list[Chunk] = []
    changed: list[Chunk] = []
    unchanged = 0
    for record in records:
        digest = content_hash(record)
        previous = existing.get(record.entry_id)
        if previous and previous[1] == digest:
            unchanged += 1
            continue
        topic, subtopic = _topic_for(record, topics)
        chunk = Chunk(
            entry_id=record.entry_id, source=sources[record.url], topic=topic, subtopic=subtopic[:200],
            type=record.type, title=record.title, content=record.content,
            diagnostic_code=record.diagnostic_code, content_hash=digest,
        )
        if previous:
            chunk.id = previous[0]
            changed.append(chunk)
        else:
            new.append(chunk)
    Chunk.objects.bulk_create(new, batch_size=500)
    Chunk.objects.bulk_update(
        changed,
        ["source", "topic", "subtopic", "type", "title", "content", "diagnostic_code", "content_hash"],
        batch_size=500,
    )
    touched = new + changed
    by_entry = {r.entry_id: r for r in records}
    _terms_upsert([by_entry[c.entry_id] for c in touched if by_entry[c.entry_id].term], sources)
    _entities_link(touched, terms=_term_aliases())
    return {"added": len(new), "updated": len(changed), "unchanged": unchanged}, [c.id for c in touched]


def _sources_upsert(records: Iterable[ChunkRecord]) -> dict[str, Source]:
    wanted: dict[str, str] = {}
    for record in records:
        wanted.setdefault(record.url, record.title)
    domains = {url: urlsplit(url).hostname or "" for url in wanted}
    Source.objects.bulk_create(
        [Source(url=url, title=title[:300], domain=domains[url], whitelisted=domain_whitelisted(domains[url]))
         for url, title in wanted.items()],
        ignore_conflicts=True,
        batch_size=500,
    )
    return {s.url: s for s in Source.objects.filter(url__in=list(wanted))}


def _topic_for(record: ChunkRecord, topics: dict[str, Topic]) -> tuple[Topic, str]:
    if record.topic in topics:
        return topics[record.topic], record.subtopic
    text = " ".join([record.topic, record.subtopic, record.title, record.content[:500]])
    ranked = topics_classify(text=text, topics={slug: t.keywords for slug, t in topics.items()})
    slug = ranked[0][0] if ranked else GENERAL_TOPIC[0]
    return topics[slug], record.subtopic or record.topic


def _terms_upsert(records: Sequence[ChunkRecord], sources: dict[str, Source]) -> None:
    terms = [
        Entity(type=Entity.Type.TERM, value=r.term.lower()[:128], name=r.term[:255],
               aliases=[a[:128] for a in r.aliases], definition=r.content, source=sources[r.url])
        for r in records
    ]
    Entity.objects.bulk_create(
        terms, update_conflicts=True, unique_fields=["type", "value"],
        update_fields=["name", "aliases", "definition", "source"],
    )


def _term_aliases() -> dict[str, str]:
    lookup: dict[str, str] = {}
    for value, aliases in Entity.objects.filter(type=Entity.Type.TERM).values_list("value", "aliases"):
        lookup[value] = value
        for alias in aliases:
            lookup.setdefault(alias.lower(), value)
    return lookup


def _entities_link(chunks: Sequence[Chunk], *, terms: dict[str, str]) -> None:
    if not chunks:
        return
    known = {(t, v): pk for pk, t, v in Entity.objects.values_list("id", "type", "value")}
    links: list[ChunkEntity] = []
    for chunk in chunks:
        found = {(e.type, e.value) for e in entities_extract(text=f"{chunk.title}\n{chunk.content}", terms=terms)}
        if chunk.diagnostic_code:
            found.add((Entity.Type.DC_CODE, chunk.diagnostic_code))
        links.extend(ChunkEntity(chunk_id=chunk.id, entity_id=known[key]) for key in found if key in known)
    ChunkEntity.objects.filter(chunk_id__in=[c.id for c in chunks]).delete()
    ChunkEntity.objects.bulk_create(links, ignore_conflicts=True, batch_size=1000)


def chunks_needing_embedding(*, chunk_ids: Sequence[int] | None) -> list[int]:
    """Return the ids of chunks whose current text has no vector from the configured model."""
    model_name = embedding_provider_get().model_name
    chunks = Chunk.objects.all() if chunk_ids is None else Chunk.objects.filter(id__in=chunk_ids)
    current = dict(ChunkEmbedding.objects.filter(model=model_name).values_list("chunk_id", "text_hash"))
    pending = []
    for pk, title, content in chunks.values_list("id", "title", "content").order_by("id"):
        if current.get(pk) != _text_hash(model_name, embedding_text(title=title, content=content)):
            pending.append(pk)
    return pending


def chunks_embed_enqueue(*, chunk_ids: Sequence[int], progress: ProgressCallback | None = None) -> None:
    """Send the chunks to the embedding task in batches (run inline when Celery is eager)."""
    from knowledge.tasks import chunks_embed_task

    size = settings.EMBEDDING_BATCH_SIZE
    for start in range(0, len(chunk_ids), size):
        batch = list(chunk_ids[start : start + size])
        chunks_embed_task.delay(batch)
        if progress:
            progress(len(batch))


def chunks_embed(*, chunk_ids: Sequence[int]) -> int:
    """Embed the given chunks with the configured model, skipping vectors that are current; return how many."""
    provider = embedding_provider_get()
    model_name = provider.model_name
    current = dict(
        ChunkEmbedding.objects.filter(model=model_name, chunk_id__in=chunk_ids).values_list("chunk_id", "text_hash")
    )
    todo: list[tuple[int, str, str]] = []
    for pk, title, content in Chunk.objects.filter(id__in=chunk_ids).values_list("id", "title", "content"):
        text = embedding_text(title=title, content=content)
        digest = _text_hash(model_name, text)
        if current.get(pk) != digest:
            todo.append((pk, text, digest))
    if not todo:
        return 0
    vectors = provider.embed([text for _, text, _ in todo])
    rows = [
        ChunkEmbedding(chunk_id=pk, model=model_name, dimensions=provider.dimensions, text_hash=digest,
                       embedding=vector)
        for (pk, _, digest), vector in zip(todo, vectors, strict=True)
    ]
    ChunkEmbedding.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["chunk", "model"],
        update_fields=["dimensions", "text_hash", "embedding", "updated_at"],
    )
    return len(rows)


def _text_hash(model_name: str, text: str) -> str:
    return hashlib.sha256(f"{model_name}\n{text}".encode()).hexdigest()
