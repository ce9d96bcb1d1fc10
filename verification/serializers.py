"""The answer object as outside code receives it (docs/ARCHITECTURE.md, "Contracts"): one serializer for the API, the
`ask --json` command and the OpenAPI schema, so the three cannot drift apart."""

from __future__ import annotations

from rest_framework import serializers

from verification.layers.refusal import REFUSAL_REASONS

CACHE_LEVELS = ("miss", "exact", "semantic", "graph")
ENTITY_TYPES = ("dc_code", "va_form", "benefit", "term")


class CitationSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, help_text="The [n] marker in the answer text.")
    chunk_id = serializers.CharField(help_text="The knowledge-base entry the cited text comes from.")
    url = serializers.CharField(help_text="The official page (va.gov, ecfr.gov) the facts come from.")
    title = serializers.CharField(allow_blank=True)
    quote = serializers.CharField(allow_blank=True, help_text="The cited passage of the source.")


class EntitySerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ENTITY_TYPES)
    value = serializers.CharField(help_text="Canonical value: 6260, 21-526EZ, tdiu, nexus letter.")


class VerificationSerializer(serializers.Serializer):
    citation_score = serializers.FloatField(help_text="Share of the answer's claims their citations support (0–1).")
    invalid_urls = serializers.ListField(child=serializers.CharField(), help_text="Links removed: not on the whitelist.")
    hallucinated_numbers = serializers.ListField(child=serializers.CharField(),
                                                 help_text="Numbers removed: no cited source states them.")
    hallucinated_codes = serializers.ListField(child=serializers.CharField(),
                                               help_text="Diagnostic codes or form numbers removed: no cited source names them.")
    removed_citations = serializers.ListField(child=serializers.IntegerField(),
                                              help_text="Citation markers removed: they named no retrieved source.")
    is_clean = serializers.BooleanField(help_text="True when no layer changed or flagged anything.")


class TraceStageSerializer(serializers.Serializer):
    stage = serializers.CharField()
    ms = serializers.FloatField(help_text="Milliseconds spent in this stage.")
    decision = serializers.CharField(required=False, help_text="What the stage decided, when it decides.")


class AnswerSerializer(serializers.Serializer):
    """The stored answer served for a question, with its evidence and how it was made."""

    id = serializers.IntegerField(help_text="The stored answer served; feedback and reviews attach to it.")
    question = serializers.CharField(help_text="The question as asked, personal data removed. Never another "
                                               "person's words, also when the answer comes from the cache.")
    rewritten_question = serializers.CharField(
        allow_null=True, default=None,
        help_text="The question as answered when it was a follow-up rewritten with the conversation's context.",
    )
    answer = serializers.CharField(help_text="Markdown: short paragraphs or bullets with [n] citation markers.")
    citations = CitationSerializer(many=True, help_text="The sources the [n] markers cite, numbered in order of "
                                                        "first use.")
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0, help_text=(
        "0–1: the geometric mean of the best retrieval score and the citation score."))
    weak_retrieval = serializers.BooleanField(help_text="The best source matched only weakly.")
    refused = serializers.BooleanField(help_text="No answer: the knowledge base cannot answer this; see "
                                                 "refusal_reason and suggestions.")
    refusal_reason = serializers.ChoiceField(choices=REFUSAL_REASONS, allow_null=True,
                                             help_text="Why there is no answer (null when answered).")
    warning = serializers.CharField(allow_null=True, help_text="The low-confidence warning, when there is one.")
    suggestions = serializers.ListField(child=serializers.CharField(), help_text="Questions the knowledge base "
                                                                                 "covers, offered on a refusal.")
    cache = serializers.ChoiceField(choices=CACHE_LEVELS, help_text="Where the answer came from: made now (miss) or "
                                                                    "a stored answer (exact, semantic, graph).")
    model = serializers.CharField(help_text="What produced the text: extractive, glossary, an LLM model, none.")
    routing_reason = serializers.CharField(help_text="Why that generator or model answered.")
    topics = serializers.ListField(child=serializers.CharField(), help_text="Topic slugs, best first.")
    entities = EntitySerializer(many=True, help_text="Codes, forms, benefits and terms the question names.")
    verification = VerificationSerializer(help_text="What the hallucination checks found and changed.")
    verified = serializers.BooleanField(help_text="A reviewer checked this answer.")
    flagged = serializers.BooleanField(help_text="A reviewer flagged this answer.")
    request_id = serializers.CharField(help_text="Quote it when reporting a problem.")
    trace = TraceStageSerializer(many=True, help_text="The pipeline's stages in order, with timings and decisions.")
    latency_ms = serializers.FloatField(help_text="Time spent answering, in milliseconds.")
    sources_checked_on = serializers.DateField(read_only=True, allow_null=True, help_text=(
        "The day the cited sources' facts were last checked against the official pages (the oldest of them); null "
        "when nothing is cited."))


_answer_serializer = AnswerSerializer()


def answer_data(result) -> dict:
    """Return the answer object (an AnswerResult) as the API sends it.

    One serializer serves every answer: a new one copies its dozens of declared fields first, which cost more
    than the answer's whole trip through the cache (measured: 1.9 ms against 0.16 ms). Representing an answer
    changes nothing on the serializer, so sharing it between threads is safe."""
    return _answer_serializer.to_representation(result)
