"""Prometheus metrics at /metrics: answers by outcome, refusal reason and cache level, stage timings, outside
calls, breaker state and task outcomes; open to loopback and METRICS_ALLOWED_FROM, 403 to anyone else."""

import re

import pytest

from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]


def sample(text: str, name: str, **labels) -> float:
    """The value of one sample in Prometheus's text format (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
            if all(found.get(k) == v for k, v in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def scrape(client, address="127.0.0.1"):
    return client.get("/metrics", REMOTE_ADDR=address, secure=True)


def test_answers_are_counted_by_outcome_cache_level_and_stage(client):
    before = scrape(client).content.decode()
    answer_question(question="What is the VA rating for tinnitus?")
    answer_question(question="What is the VA rating for tinnitus?")
    answer_question(question="What is the rating for DC 9999?")
    after = scrape(client)
    assert after.status_code == 200 and after["Content-Type"].startswith("text/plain")
    text = after.content.decode()

    def grew(name, **labels):
        return sample(text, name, **labels) - sample(before, name, **labels)

    assert grew("vbai_answers_total", outcome="answered", cache="miss") == 1
    assert grew("vbai_answers_total", outcome="answered", cache="exact") == 1
    assert grew("vbai_answers_total", outcome="refused", refusal_reason="entity_not_found") == 1
    assert grew("vbai_stage_seconds_count", stage="retrieve") == 1
    assert grew("vbai_stage_seconds_count", stage="cache_exact") == 3
    assert sample(text, "vbai_circuit_breaker_open", service="llm") == 0.0
    assert "vbai_celery_tasks_total" in text and "vbai_outside_calls_total" in text


def test_a_scraper_on_plain_http_is_not_redirected(client):
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    assert client.get("/api/v1/health/").status_code in (200, 503)


def test_other_addresses_are_refused_unless_allowed(client, settings):
    assert scrape(client, "203.0.113.9").status_code == 403
    settings.METRICS_ALLOWED_FROM = ["203.0.113.0/24"]
    assert scrape(client, "203.0.113.9").status_code == 200
    assert scrape(client, "198.51.100.1").status_code == 403


def test_a_failing_llm_shows_in_the_outside_calls_and_fallbacks(client, settings, openai_configured):
    settings.LLM_PROVIDER, settings.LLM_MODEL, settings.LLM_PREMIUM_MODEL = "openai", "cheap", "premium"
    openai_configured.fail_next(times=10, status=500, path="/v1/chat/completions")
    before = scrape(client).content.decode()
    answer_question(question="What is the VA rating for tinnitus?", use_cache=False)
    text = scrape(client).content.decode()
    assert sample(text, "vbai_outside_calls_total", service="llm", result="failed") == \
        sample(before, "vbai_outside_calls_total", service="llm", result="failed") + 1
    assert sample(text, "vbai_fallbacks_total", service="llm") == sample(before, "vbai_fallbacks_total", service="llm") + 1
