import dataclasses

import pytest

from tests.verification.layers.sources import TINNITUS
from verification.layers import types
from verification.layers.types import (
    CitationCheck,
    CitationCleanup,
    NumberCheck,
    UrlCheck,
    verification_dict_build,
)


@pytest.mark.parametrize(
    "cls", [value for value in vars(types).values() if dataclasses.is_dataclass(value) and isinstance(value, type)]
)
def test_every_dataclass_is_frozen(cls):
    assert cls.__dataclass_params__.frozen


def test_source_chunk_defaults_and_is_hashable():
    assert TINNITUS.topic == "disability_ratings"
    assert dataclasses.replace(TINNITUS, topic="", diagnostic_code="").diagnostic_code == ""
    assert hash(TINNITUS) == hash(dataclasses.replace(TINNITUS))


def test_verification_object_is_the_api_contracts():
    verification = verification_dict_build(
        urls=UrlCheck(text="x"),
        citations=CitationCheck(score=1.0, total=1, supported=1),
        numbers=NumberCheck(text="x"),
        cleanup=CitationCleanup(text="x"),
    )

    assert verification == {
        "citation_score": 1.0,
        "invalid_urls": [],
        "hallucinated_numbers": [],
        "hallucinated_codes": [],
        "removed_citations": [],
        "is_clean": True,
    }


@pytest.mark.parametrize(
    "changed",
    [
        {"urls": UrlCheck(text="x", invalid_urls=("https://evil.example.com/x",))},
        {"citations": CitationCheck(score=0.5, total=2, supported=1, flagged=True)},
        {"numbers": NumberCheck(text="x", hallucinated_numbers=("30%",))},
        {"numbers": NumberCheck(text="x", hallucinated_codes=("6261",))},
        {"cleanup": CitationCleanup(text="x", removed_citations=("[9]",))},
    ],
)
def test_any_finding_makes_it_unclean(changed):
    parts = {
        "urls": UrlCheck(text="x"),
        "citations": CitationCheck(score=1.0, total=1, supported=1),
        "numbers": NumberCheck(text="x"),
        "cleanup": CitationCleanup(text="x"),
        **changed,
    }

    assert verification_dict_build(**parts)["is_clean"] is False
