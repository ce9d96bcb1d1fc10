"""A worker's per-chunk caches, warmed before its first answer (gunicorn's post_worker_init)."""

import runpy
from pathlib import Path

import pytest

from knowledge.models import Chunk
from verification.generators import extractive
from verification.layers import citations, numbers
from verification.services import answer_question
from verification.warmup import answer_caches_clear, answer_caches_warm

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]

GUNICORN_CONF = Path(__file__).resolve().parents[2] / "veterans_ai" / "gunicorn.conf.py"


def test_after_the_warm_up_an_answer_derives_nothing_new_about_its_chunks():
    answer_caches_clear()
    assert answer_caches_warm() == Chunk.objects.count()
    facts, words = numbers._text_facts.cache_info(), citations.source_words.cache_info()
    codes = extractive._codes_in.cache_info()
    titles = (extractive._title_benefits.cache_info(), extractive._title_phrases.cache_info(),
              extractive._title_pairs.cache_info())
    result = answer_question(question="What is the VA rating for tinnitus?", use_cache=False)
    assert not result.refused and "6260" in result.answer
    # Every chunk the answer read was met before: its facts and words came from the caches.
    assert numbers._text_facts.cache_info().misses == facts.misses
    assert citations.source_words.cache_info().misses == words.misses
    assert extractive._codes_in.cache_info().misses == codes.misses
    assert (extractive._title_benefits.cache_info().misses, extractive._title_phrases.cache_info().misses,
            extractive._title_pairs.cache_info().misses) == (titles[0].misses, titles[1].misses, titles[2].misses)
    assert numbers._text_facts.cache_info().hits > facts.hits


def test_without_the_warm_up_the_first_answer_derives_its_chunks_facts():
    answer_caches_warm()
    answer_caches_clear()
    # Every chunk cache is empty, as in a fresh worker: the benchmark's first pass after warm-up starts there.
    assert {cached.cache_info().currsize for cached in (numbers._text_facts, citations.source_words,
            extractive._codes_in, extractive._title_benefits, extractive._title_phrases, extractive._title_pairs)} == {0}
    answer_question(question="What is the VA rating for tinnitus?", use_cache=False)
    assert numbers._text_facts.cache_info().misses > 0


class _Log:
    def __init__(self) -> None:
        self.exceptions: list[str] = []

    def exception(self, message: str) -> None:
        self.exceptions.append(message)


class _Worker:
    def __init__(self) -> None:
        self.log = _Log()


def test_gunicorn_warms_each_worker_and_starts_it_even_when_warming_fails(monkeypatch):
    hook = runpy.run_path(str(GUNICORN_CONF))["post_worker_init"]
    answer_caches_clear()
    worker = _Worker()
    hook(worker)
    assert numbers._text_facts.cache_info().currsize == Chunk.objects.count() and worker.log.exceptions == []

    def unreachable(**_):
        raise OSError("database unreachable")

    monkeypatch.setattr("verification.warmup.answer_caches_warm", unreachable)
    hook(worker)  # does not raise: the worker starts and warms as it answers
    assert worker.log.exceptions == ["answer caches not warmed"]
