"""The request id every log line carries, from the web request into the Celery tasks it queues.

A request keeps the `X-Request-ID` its caller sent when it is a plain token, else gets a new one; the response
echoes it, the answer quotes it, and a task queued while handling it logs under the same id."""

from __future__ import annotations

import contextvars
import logging
import re
import uuid

REQUEST_ID_HEADER = "X-Request-ID"
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


def request_id_new() -> str:
    return f"req-{uuid.uuid4().hex[:16]}"


def request_id_get() -> str:
    return _request_id.get()


def request_id_set(value: str) -> contextvars.Token:
    return _request_id.set(value)


def request_id_reset(token: contextvars.Token) -> None:
    _request_id.reset(token)


def request_id_accept(value: str | None) -> str:
    """The caller's id when it is a plain token (nothing a log reader could be fooled by), else a new one."""
    return value if value and _VALID.fullmatch(value) else request_id_new()


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.request_id = request_id_accept(request.headers.get(REQUEST_ID_HEADER))
        token = request_id_set(request.request_id)
        try:
            response = self.get_response(request)
        finally:
            request_id_reset(token)
        response[REQUEST_ID_HEADER] = request.request_id
        return response


class RequestIdFilter(logging.Filter):
    """Give every record the request id in force and its component (the logger's top-level package)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)  # Django logs a response's status after the middleware ran
        record.request_id = (getattr(record, "request_id", None) or request_id_get()
                             or getattr(request, "request_id", ""))
        record.component = record.name.split(".", 1)[0]
        return True
