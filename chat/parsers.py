"""The API's JSON parser: refuses (never crashes on) oversized, too deeply nested or invalid Unicode bodies.
Kept apart from the views: DRF imports parser classes while it loads."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import status
from rest_framework.parsers import BaseParser

from chat.errors import ERR_NOT_JSON, ERR_SURROGATE, ERR_TOO_DEEP, ERR_TOO_LARGE, ApiError

# Far deeper than any valid request (the deepest is 3 levels), far shallower than Python's recursion limit.
MAX_JSON_DEPTH = 32


class StrictJSONParser(BaseParser):
    """Parse a JSON body, refusing (never crashing on) oversized, too deeply nested or non-UTF-8 input."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        request = (parser_context or {}).get("request")
        limit = settings.API_MAX_BODY_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
        except ValueError:
            length = 0
        if length > limit:
            raise ApiError("body_too_large", ERR_TOO_LARGE.format(limit=limit), status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        try:
            raw = stream.read(limit + 1) if stream is not None else b""
        except RequestDataTooBig as exc:
            raise ApiError("body_too_large", ERR_TOO_LARGE.format(limit=limit),
                           status.HTTP_413_REQUEST_ENTITY_TOO_LARGE) from exc
        if len(raw) > limit:
            raise ApiError("body_too_large", ERR_TOO_LARGE.format(limit=limit), status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError("invalid_json", ERR_NOT_JSON) from exc
        if _depth_exceeds(text, MAX_JSON_DEPTH):
            raise ApiError("invalid_json", ERR_TOO_DEEP)
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise ApiError("invalid_json", ERR_NOT_JSON) from exc
        if _has_surrogate(data):
            raise ApiError("invalid_unicode", ERR_SURROGATE)
        return data


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _depth_exceeds(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (checked before parsing, which recurses)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False
