"""The REST answer API: POST /api/v1/answer/ (contract in DESIGN.md)."""

from __future__ import annotations

import logging

from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, UnsupportedMediaType
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler

from verification.services import QuestionInvalid, answer_question

logger = logging.getLogger(__name__)

ERR_NOT_JSON = "The request body must be a JSON object: {\"question\": \"...\"}."
ERR_NOT_OBJECT = "The request body must be a JSON object with a \"question\" field."
ERR_MISSING = "The \"question\" field is required."
ERR_SESSION = "\"session_id\" must be a string of at most 64 characters."
ERR_UNKNOWN = "Unknown fields: {fields}. Send \"question\" and, optionally, \"session_id\"."
ERR_INTERNAL = "Something went wrong answering this question. Please try again, or call VA at 1-800-827-1000."
ALLOWED_FIELDS = {"question", "session_id"}


def error_response(code: str, message: str, http_status: int = status.HTTP_400_BAD_REQUEST) -> Response:
    return Response({"error": {"code": code, "message": message}}, status=http_status)


def api_exception_handler(exc, context):
    """Answer every API error as {"error": {"code", "message"}}; malformed bodies are 400s, never 500s."""
    if isinstance(exc, (ParseError, UnsupportedMediaType)):
        return error_response("invalid_json", ERR_NOT_JSON)
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, APIException):
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        return error_response(exc.default_code, detail, response.status_code)
    return response


class AnswerView(APIView):
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            return error_response("invalid_body", ERR_NOT_OBJECT)
        if unknown := sorted(set(data) - ALLOWED_FIELDS):
            return error_response("unknown_fields", ERR_UNKNOWN.format(fields=", ".join(unknown)))
        if "question" not in data:
            return error_response("missing_question", ERR_MISSING)
        session_id = data.get("session_id")
        if session_id is not None and (not isinstance(session_id, str) or len(session_id) > 64):
            return error_response("invalid_session_id", ERR_SESSION)
        try:
            result = answer_question(question=data["question"])
        except QuestionInvalid as exc:
            return error_response(exc.code, exc.message)
        except Exception:  # the pipeline degrades outside failures itself; this is the last line
            logger.exception("answer failed")
            return error_response("internal_error", ERR_INTERNAL, status.HTTP_500_INTERNAL_SERVER_ERROR)
        return Response(result.to_dict())
