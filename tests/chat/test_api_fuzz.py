"""Schema-driven fuzzing of the API with schemathesis: bodies, paths and queries generated from the checked-in
schema (the contract; test_schema.py keeps it equal to /api/schema/), sent to the app in-process. No response
may be a 5xx, and every response must be one the schema documents (status, content type, headers, body).
Bounded in examples, so the suite's time stays fixed."""

from pathlib import Path

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

schema = schemathesis.openapi.from_path(Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml")
schema.app = get_wsgi_application()
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


@pytest.fixture
def in_process(settings):
    """Unthrottled, and the test's transaction kept open across requests, as Django's own test client does."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "client": "100000/min"}}
    cache.clear()
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb", "in_process")
@schema.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_the_api_never_fails_and_always_answers_as_documented(case):
    # The in-process client speaks plain HTTP; the header is what the TLS-terminating proxy adds in production.
    case.call_and_validate(checks=CHECKS, headers={"X-Forwarded-Proto": "https"})
