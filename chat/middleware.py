"""Answer a database outage with 503 and Retry-After (JSON on the API, a plain page elsewhere), never a stack
trace; Django reconnects on the next request once the database is back (CONN_HEALTH_CHECKS)."""

from __future__ import annotations

import logging

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

from chat.errors import ERR_UNAVAILABLE, error_body

logger = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 30


def unavailable_response(request) -> HttpResponse:
    if request.path.startswith("/api/"):
        response = JsonResponse(error_body("service_unavailable", ERR_UNAVAILABLE), status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"message": ERR_UNAVAILABLE}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        except (OperationalError, InterfaceError) as exc:  # raised by middleware below, e.g. session loading
            return self._unavailable(request, exc)

    def process_exception(self, request, exception):
        if isinstance(exception, (OperationalError, InterfaceError)) or (
            isinstance(exception, DatabaseError) and "connection" in str(exception).lower()
        ):
            return self._unavailable(request, exception)
        return None

    def _unavailable(self, request, exc) -> HttpResponse:
        from django.db import connections

        logger.error("database unavailable: %s", exc)
        for conn in connections.all(initialized_only=True):
            conn.close_if_unusable_or_obsolete()
        return unavailable_response(request)
