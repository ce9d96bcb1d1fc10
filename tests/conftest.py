from collections.abc import Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAIServer


@pytest.fixture(autouse=True)
def _reference_cache_cleared():
    """Each test sees the database it made, not glossary or topic rows an earlier test cached."""
    from knowledge.selectors import reference_cache_clear

    reference_cache_clear()
    yield
    reference_cache_clear()


@pytest.fixture(autouse=True)
def _breakers_closed():
    """Each test starts with every outside service's circuit breaker closed."""
    from veterans_ai.resilience import breaker

    breaker.cache_clear()
    yield
    breaker.cache_clear()


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A fake OpenAI-compatible server on 127.0.0.1; point clients at fake_openai.base_url."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def openai_configured(settings, fake_openai) -> FakeOpenAIServer:
    """The settings an OpenAI-compatible provider reads, pointed at the fake server; retries off."""
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_BASE_URL = fake_openai.base_url
    settings.OPENAI_MAX_RETRIES = 0
    return fake_openai


# ---- the bundled corpus, ingested once per run for the tests that need a real knowledge base ----

BUNDLED_FIXTURE = "bundled_kb"


def pytest_collection_modifyitems(config, items):
    """Run the tests on the bundled corpus last: it stays in the database until the session ends, and the
    other tests expect an empty knowledge base (transactional tests would also flush it)."""
    items.sort(key=lambda item: BUNDLED_FIXTURE in getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session")
def bundled_kb(django_db_setup, django_db_blocker):
    from django.db import connection

    from knowledge.services import bundled_corpus_paths, corpus_ingest

    with django_db_blocker.unblock():
        summary = corpus_ingest(paths=bundled_corpus_paths(), fmt="vbkb")
        yield summary
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE knowledge_chunk, knowledge_source, knowledge_entity, knowledge_topic, "
                           "knowledge_answeredquestion CASCADE")


def pytest_sessionstart(session):
    """Templates name static files by their hashed names: build them once if `make test` has not."""
    from pathlib import Path

    from django.conf import settings
    from django.core.management import call_command

    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)
