from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models.functions import Cast
from pgvector.django import HnswIndex, VectorField
from simple_history.models import HistoricalRecords

# Embedding models with a partial HNSW index of their own: name → dimensions. Vectors of any other model are
# still stored and searched (exactly); adding a model here only adds its index.
INDEXED_EMBEDDING_MODELS = {"all-MiniLM-L6-v2": 384, "text-embedding-3-small": 1536}


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class Topic(TimeStampedModel):
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=128)
    keywords = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    seed_hash = models.CharField(
        max_length=64, blank=True, editable=False,
        help_text="Fingerprint of the seed values last written; a row whose values differ was edited by a person",
    )
    history = HistoricalRecords(excluded_fields=["seed_hash"])

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name


class Source(TimeStampedModel):
    url = models.URLField(max_length=500, unique=True)
    title = models.CharField(max_length=300, blank=True)
    domain = models.CharField(max_length=253, db_index=True)
    whitelisted = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["url"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(url__startswith="https://") | models.Q(url__startswith="http://"),
                name="source_url_http",
            ),
        ]

    def __str__(self) -> str:
        return self.url


class Entity(TimeStampedModel):
    class Type(models.TextChoices):
        DC_CODE = "dc_code", "Diagnostic code"
        VA_FORM = "va_form", "VA form"
        BENEFIT = "benefit", "Benefit"
        TERM = "term", "Term"

    type = models.CharField(max_length=16, choices=Type.choices)
    value = models.CharField(max_length=128, help_text="Canonical value: 6260, 21-526EZ, tdiu, nexus letter")
    name = models.CharField(max_length=255, help_text="Canonical name shown to people")
    aliases = ArrayField(models.CharField(max_length=128), default=list, blank=True)
    definition = models.TextField(blank=True)
    source = models.ForeignKey(Source, null=True, blank=True, on_delete=models.SET_NULL, related_name="entities")
    seed_hash = models.CharField(
        max_length=64, blank=True, editable=False,
        help_text="Fingerprint of the seed values last written; a row whose values differ was edited by a person",
    )
    history = HistoricalRecords(excluded_fields=["seed_hash"])

    class Meta:
        ordering = ["type", "value"]
        verbose_name_plural = "entities"
        constraints = [
            models.UniqueConstraint(fields=["type", "value"], name="entity_type_value_unique"),
            models.CheckConstraint(condition=models.Q(type__in=["dc_code", "va_form", "benefit", "term"]),
                                   name="entity_type_valid"),
            models.CheckConstraint(
                condition=~models.Q(type="dc_code") | models.Q(value__regex=r"^[0-9]{4}$"), name="entity_dc_code_4_digits"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_type_display()} {self.value}"


class Chunk(TimeStampedModel):
    entry_id = models.CharField(max_length=200, unique=True)
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="chunks")
    topic = models.ForeignKey(Topic, on_delete=models.PROTECT, related_name="chunks")
    subtopic = models.CharField(max_length=200, blank=True)
    type = models.CharField(max_length=40, default="narrative")
    title = models.CharField(max_length=300, blank=True)
    content = models.TextField()
    diagnostic_code = models.CharField(max_length=4, blank=True, db_index=True)
    content_hash = models.CharField(max_length=64)
    checked_on = models.DateField(
        null=True, blank=True, help_text="The day this chunk's facts were last checked against its source",
    )
    search_vector = models.GeneratedField(
        expression=SearchVector("title", "content", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    entities = models.ManyToManyField(Entity, through="ChunkEntity", related_name="chunks", blank=True)
    history = HistoricalRecords(excluded_fields=["search_vector"])

    class Meta:
        ordering = ["entry_id"]
        indexes = [GinIndex(fields=["search_vector"], name="chunk_search_vector_gin")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(content=""), name="chunk_content_not_empty"),
            models.CheckConstraint(
                condition=models.Q(diagnostic_code="") | models.Q(diagnostic_code__regex=r"^[0-9]{4}$"),
                name="chunk_diagnostic_code_4_digits",
            ),
        ]

    def __str__(self) -> str:
        return self.entry_id


class ChunkEntity(models.Model):
    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE)
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["chunk", "entity"], name="chunk_entity_unique")]

    def __str__(self) -> str:
        return f"{self.chunk_id}→{self.entity_id}"


class ChunkEmbedding(TimeStampedModel):
    """One vector per chunk and embedding model; `text_hash` says which text it was made from."""

    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE, related_name="embeddings")
    model = models.CharField(max_length=100)
    dimensions = models.PositiveSmallIntegerField()
    text_hash = models.CharField(max_length=64)
    embedding = VectorField()

    class Meta:
        ordering = ["chunk_id", "model"]
        constraints = [
            models.UniqueConstraint(fields=["chunk", "model"], name="chunk_embedding_model_unique"),
            models.CheckConstraint(condition=models.Q(dimensions__gt=0), name="chunk_embedding_dimensions_positive"),
        ]
        indexes = [
            HnswIndex(
                OpClass(Cast("embedding", VectorField(dimensions=dims)), name="vector_cosine_ops"),
                name=f"chunk_emb_hnsw_{dims}",
                condition=models.Q(model=model_name),
                m=16,
                ef_construction=64,
            )
            for model_name, dims in INDEXED_EMBEDDING_MODELS.items()
        ]

    def __str__(self) -> str:
        return f"{self.chunk_id} ({self.model})"


class ChunkSentence(models.Model):
    """A sentence or table row of a chunk with its vector, made once at ingestion for extractive answers."""

    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE, related_name="sentences")
    position = models.PositiveSmallIntegerField()
    text = models.TextField()
    model = models.CharField(max_length=100)
    embedding = VectorField()

    class Meta:
        ordering = ["chunk_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["chunk", "model", "position"], name="chunk_sentence_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.chunk_id}#{self.position}"


class AnsweredQuestion(TimeStampedModel):
    class RefusalReason(models.TextChoices):
        RETRIEVAL_TOO_WEAK = "retrieval_too_weak", "Retrieval too weak"
        OUT_OF_SCOPE = "out_of_scope", "Out of scope"
        ENTITY_NOT_FOUND = "entity_not_found", "Entity not found"
        TERMINOLOGY_NOT_FOUND = "terminology_not_found", "Term not found"
        TERMINOLOGY_UNVERIFIED = "terminology_unverified", "Term unverified"
        UNSUPPORTED_ANSWER = "unsupported_answer", "Answer not supported by sources"

    question = models.TextField(help_text="As asked, with personal data removed")
    question_hash = models.CharField(max_length=64, db_index=True)
    gate_key = models.CharField(
        max_length=500, blank=True, db_index=True,
        help_text="The entity gate: codes, forms, benefits, numbers, meaning markers and topic a cached answer "
                  "must share",
    )
    intent_words = models.CharField(
        max_length=500, blank=True,
        help_text="What the question asks beyond the entities it names (knowledge.gate.intent_words)",
    )
    answer = models.TextField(blank=True)
    citations = models.JSONField(default=list, blank=True)
    question_embedding = VectorField(null=True, blank=True)
    answer_embedding = VectorField(null=True, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True)
    confidence = models.FloatField(default=0.0)
    retrieval_score = models.FloatField(default=0.0, help_text="Cosine similarity of the best retrieved chunk")
    retrieved = models.JSONField(default=list, blank=True, help_text="Retrieved chunks: entry_id, score, title")
    weak_retrieval = models.BooleanField(default=False)
    refused = models.BooleanField(default=False)
    refusal_reason = models.CharField(max_length=32, choices=RefusalReason.choices, blank=True)
    warning = models.TextField(blank=True)
    suggestions = models.JSONField(default=list, blank=True)
    model = models.CharField(max_length=100, blank=True)
    routing_reason = models.CharField(max_length=100, blank=True)
    verification = models.JSONField(default=dict, blank=True)
    trace = models.JSONField(default=list, blank=True)
    verified = models.BooleanField(default=False)
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)
    flagged = models.BooleanField(default=False)
    flagged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    flagged_at = models.DateTimeField(null=True, blank=True)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    corrected_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True, help_text="The reason given with the latest review decision")
    review_version = models.PositiveIntegerField(
        default=0, help_text="Raised by every review decision: a decision made on an older version is a conflict",
    )
    needs_review = models.BooleanField(
        default=False,
        help_text="A layer changed or flagged the answer, it carries a low-confidence warning, or a source it "
                  "cites changed: in the reviewers' queue, and served to other wordings only once verified",
    )
    stale = models.BooleanField(
        default=False, help_text="A chunk the answer cites was changed or removed by re-ingestion",
    )
    current = models.BooleanField(
        default=True,
        help_text="The answer the cache holds for its question; off once stale or cleared from the cache",
    )
    off_record = models.BooleanField(
        default=False, help_text="Answered by a --no-cache or evaluation run: never cached nor queued for review",
    )
    hit_count = models.PositiveIntegerField(default=0)
    verified_hit_count = models.PositiveIntegerField(default=0, help_text="Times served from the cache while verified")
    last_served_at = models.DateTimeField(null=True, blank=True)
    topics = models.ManyToManyField(Topic, through="QuestionTopic", related_name="questions", blank=True)
    entities = models.ManyToManyField(Entity, through="QuestionEntity", related_name="questions", blank=True)
    sources = models.ManyToManyField(Source, through="QuestionSource", related_name="questions", blank=True)
    history = HistoricalRecords(excluded_fields=[
        "question_embedding", "answer_embedding", "retrieved", "trace", "suggestions", "hit_count",
        "verified_hit_count", "last_served_at",
    ])

    class Meta:
        ordering = ["-created_at"]
        permissions = [
            ("verify_answeredquestion", "Can verify answers"),
            ("flag_answeredquestion", "Can flag answers and clear flags"),
            ("correct_answeredquestion", "Can correct answers"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(refused=False, refusal_reason="") | (models.Q(refused=True) & ~models.Q(refusal_reason="")),
                name="answered_refusal_reason_iff_refused",
            ),
            models.CheckConstraint(
                condition=~models.Q(verified=True, flagged=True), name="answered_not_verified_and_flagged"
            ),
            models.CheckConstraint(
                condition=models.Q(confidence__gte=0.0, confidence__lte=1.0), name="answered_confidence_0_1"
            ),
            models.CheckConstraint(condition=~models.Q(stale=True, current=True), name="answered_stale_not_current"),
            models.CheckConstraint(condition=~models.Q(off_record=True, current=True),
                                   name="answered_off_record_not_current"),
            # One answer per question in the cache: two identical questions at the same moment store one.
            # Refusals are left out: they are answered afresh each time and never served from the cache.
            models.UniqueConstraint(fields=["question_hash"], condition=models.Q(current=True, refused=False),
                                    name="answered_one_current_per_question"),
        ]
        indexes = [
            # Refusal suggestions read the verified answers only; without this every refusal scanned the table.
            models.Index(fields=["embedding_model"], name="answered_verified_served",
                         condition=models.Q(verified=True, refused=False)),
            # The semantic and graph caches: the stored questions' vectors, one partial HNSW index per model.
            *[
                HnswIndex(
                    OpClass(Cast("question_embedding", VectorField(dimensions=dims)), name="vector_cosine_ops"),
                    name=f"answered_question_hnsw_{dims}",
                    condition=models.Q(embedding_model=model_name, current=True, refused=False),
                    m=16,
                    ef_construction=64,
                )
                for model_name, dims in INDEXED_EMBEDDING_MODELS.items()
            ],
            models.Index(fields=["gate_key", "embedding_model"], name="answered_gate_current",
                         condition=models.Q(current=True, refused=False)),
            # The reviewers' queue and the stale list.
            models.Index(fields=["-created_at"], name="answered_review_queue",
                         condition=models.Q(needs_review=True, verified=False, flagged=False, off_record=False)),
        ]

    def __str__(self) -> str:
        return self.question[:80]


class AnswerSourceChange(TimeStampedModel):
    """A chunk an answer cited, changed or removed by re-ingestion: what the stale queue shows."""

    class Kind(models.TextChoices):
        CHANGED = "changed", "Changed"
        REMOVED = "removed", "Removed"

    answered_question = models.ForeignKey(AnsweredQuestion, on_delete=models.CASCADE, related_name="source_changes")
    entry_id = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    before = models.TextField()
    after = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(kind__in=["changed", "removed"]), name="source_change_kind_valid"),
            models.CheckConstraint(condition=~models.Q(kind="removed") | models.Q(after=""),
                                   name="source_change_removed_has_no_after"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} {self.kind}"


class QuestionTopic(models.Model):
    question = models.ForeignKey(AnsweredQuestion, on_delete=models.CASCADE)
    topic = models.ForeignKey(Topic, on_delete=models.CASCADE)
    score = models.FloatField(default=0.0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["question", "topic"], name="question_topic_unique")]

    def __str__(self) -> str:
        return f"{self.question_id}→{self.topic_id}"


class QuestionEntity(models.Model):
    question = models.ForeignKey(AnsweredQuestion, on_delete=models.CASCADE)
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["question", "entity"], name="question_entity_unique")]

    def __str__(self) -> str:
        return f"{self.question_id}→{self.entity_id}"


class QuestionSource(models.Model):
    question = models.ForeignKey(AnsweredQuestion, on_delete=models.CASCADE)
    source = models.ForeignKey(Source, on_delete=models.CASCADE)
    chunk = models.ForeignKey(Chunk, null=True, blank=True, on_delete=models.SET_NULL)
    citation_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["question", "source", "chunk"], name="question_source_chunk_unique")
        ]

    def __str__(self) -> str:
        return f"{self.question_id}→{self.source_id}"
