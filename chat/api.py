"""The public REST API (contract in docs/ARCHITECTURE.md; the schema at /api/schema/ is generated from the serializers)."""

from __future__ import annotations

import hashlib
import json
import logging
import math

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler

from chat.authentication import ERR_BAD_KEY
from chat.errors import (
    ERR_MEDIA_TYPE,
    ERR_METHOD,
    ERR_NOT_FOUND,
    ERR_NOT_JSON,
    ERR_THROTTLED,
    ApiError,
    error_body,
    error_response,
)
from chat.models import ApiClient
from chat.selectors import stored_answer_get
from chat.serializers import (
    AnswerRequestSerializer,
    ErrorSerializer,
    FeedbackRequestSerializer,
    FeedbackSerializer,
    HealthSerializer,
    StoredAnswerSerializer,
)
from chat.services import chat_ask, feedback_record
from knowledge.models import AnsweredQuestion
from verification.serializers import AnswerSerializer, answer_data
from verification.services import QuestionInvalid

logger = logging.getLogger(__name__)

RETRY_AFTER = OpenApiParameter("Retry-After", int, OpenApiParameter.HEADER, response=[429, 503],
                               description="Seconds to wait before trying again.")
ERROR = ErrorSerializer


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    described = {
        400: "The request is malformed; `error.code` says how (empty_question, question_too_long, invalid_json, "
             "unknown_fields, unknown_topic, …).",
        401: "An Authorization header was sent with a key that is not valid, revoked or expired.",
        404: "No such stored answer.",
        405: "Method not allowed.",
        413: "The body is larger than the limit.",
        415: "The body is not sent as application/json.",
        429: "Too many requests from this client; see Retry-After.",
        503: "The database is unavailable; see Retry-After.",
    }
    return {code: OpenApiResponse(ERROR, description=described[code]) for code in codes}


def request_validate(serializer_class, data) -> dict:
    """Return the validated request or raise an ApiError naming the first field at fault."""
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return serializer.validated_data
    field, errors = next(iter(serializer.errors.items()))
    detail = errors[0] if isinstance(errors, list) else errors
    if field == "non_field_errors":
        raise ApiError(detail.code, str(detail))
    code, message = serializer.error_codes.get(f"{field}:{detail.code}") or serializer.error_codes[field]
    raise ApiError(code, message)


def conversation_key(request, session_id: str | None) -> str | None:
    """API conversations are the client's own: the same session_id under two keys is two conversations."""
    if not session_id:
        return None
    client = request.auth.prefix if isinstance(request.auth, ApiClient) else "anon"
    return f"api:{client}:{session_id}"


def voter_key(request, session_id: str | None) -> str:
    if key := conversation_key(request, session_id):
        return key
    if isinstance(request.auth, ApiClient):
        return f"api:{request.auth.prefix}"
    address = request.META.get("REMOTE_ADDR", "")
    return "ip:" + hashlib.sha256(f"{settings.SECRET_KEY}:{address}".encode()).hexdigest()[:24]


class AnswerView(APIView):
    @extend_schema(
        operation_id="answer_question",
        summary="Answer a question about VA benefits",
        description="Answers from the knowledge base with numbered citations, or refuses with the reason and "
                    "suggestions. Anonymous callers get a lower rate than API clients (`Authorization: Bearer <key>`).",
        request=AnswerRequestSerializer,
        responses={200: OpenApiResponse(AnswerSerializer, description="The answer, or a refusal saying why."),
                   **_errors(400, 401, 413, 415, 429, 503)},
        tags=["answers"],
        parameters=[RETRY_AFTER],
    )
    def post(self, request):
        data = request_validate(AnswerRequestSerializer, request.data)
        key = conversation_key(request, data.get("session_id"))
        try:
            result = chat_ask(question=data["question"], conversation_key=key, topic=data.get("topic"),
                              source=data.get("source")).result
        except QuestionInvalid as exc:
            raise ApiError(exc.code, exc.message) from exc
        return Response(answer_data(result))


class StoredAnswerView(APIView):
    @extend_schema(
        operation_id="stored_answer",
        summary="Read a stored answer",
        parameters=[
            OpenApiParameter("session_id", str, OpenApiParameter.QUERY,
                             description="The session that asked: its question is shown, no one else's."),
            RETRY_AFTER,
        ],
        responses={200: OpenApiResponse(StoredAnswerSerializer, description="The stored answer."),
                   **_errors(401, 404, 429, 503)},
        tags=["answers"],
    )
    def get(self, request, answer_id: str):
        session_id = request.query_params.get("session_id")
        if session_id is not None and len(session_id) > 64:
            raise ApiError("invalid_session_id", "\"session_id\" must be at most 64 characters.")
        stored = stored_answer_get(answer_id=int(answer_id), conversation_key=conversation_key(request, session_id))
        if stored is None:
            raise ApiError("not_found", "No stored answer has this id.", status.HTTP_404_NOT_FOUND)
        return Response(StoredAnswerSerializer(stored).data)


class FeedbackView(APIView):
    @extend_schema(
        operation_id="answer_feedback",
        summary="Say whether an answer helped",
        description="\"Not helpful\" puts the answer in the reviewers' queue with the reason. One vote per "
                    "answer per conversation: voting again replaces the vote.",
        request=FeedbackRequestSerializer,
        responses={200: OpenApiResponse(FeedbackSerializer, description="The vote as recorded."),
                   **_errors(400, 401, 404, 413, 415, 429, 503)},
        tags=["feedback"],
        parameters=[RETRY_AFTER],
    )
    def post(self, request, answer_id: str):
        data = request_validate(FeedbackRequestSerializer, request.data)
        answer = get_object_or_404(AnsweredQuestion.objects.only("id"), id=int(answer_id))
        feedback = feedback_record(answered_question_id=answer.id, voter=voter_key(request, data.get("session_id")),
                                   helpful=data["helpful"], reason=data.get("reason") or "",
                                   comment=data.get("comment") or "")
        return Response(FeedbackSerializer(feedback).data)


class HealthView(APIView):
    throttle_classes = []  # polled by load balancers; the report itself is reused for a few seconds

    @extend_schema(
        operation_id="health",
        summary="Whether the service can answer",
        description="200 when the database, cache, broker and embedding model all serve, or when Redis or the "
                    "broker is down and a stand-in serves (status degraded, naming them); 503 naming the failing "
                    "parts otherwise.",
        responses={200: OpenApiResponse(HealthSerializer, description="Answers are served (ok or degraded)."),
                   503: OpenApiResponse(HealthSerializer, description="A part is failing.")},
        tags=["health"],
        parameters=[RETRY_AFTER],
    )
    def get(self, request):
        from chat.health import health_get

        report = health_get()
        body = HealthSerializer({"status": report.status, "failing": report.failing, "degraded": report.degraded,
                                 "checks": report.checks}).data
        if report.failing:
            return Response(body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "30"})
        return Response(body)


def api_exception_handler(exc, context):
    """Answer every API error as {"error": {"code", "message"}} with the right status; never an HTML page."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, ApiError):
        return error_response(exc.error_code, str(exc.detail), exc.status_code)
    if isinstance(exc, exceptions.UnsupportedMediaType):
        media_type = context["request"].content_type or "none"
        return error_response("unsupported_media_type", ERR_MEDIA_TYPE.format(media_type=media_type),
                              status.HTTP_415_UNSUPPORTED_MEDIA_TYPE)
    if isinstance(exc, exceptions.ParseError):
        return error_response("invalid_json", ERR_NOT_JSON)
    response = exception_handler(exc, context)
    if response is None:
        return None  # not an API error: the middleware answers database outages, Django the rest
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, math.ceil(exc.wait or 1))
        message, code = ERR_THROTTLED.format(wait=wait), "throttled"
        response["Retry-After"] = str(wait)
    elif isinstance(exc, exceptions.MethodNotAllowed):
        message, code = ERR_METHOD.format(method=context["request"].method), "method_not_allowed"
    elif isinstance(exc, exceptions.NotFound):
        message, code = ERR_NOT_FOUND, "not_found"
    elif isinstance(exc, exceptions.AuthenticationFailed | exceptions.NotAuthenticated):
        message, code = ERR_BAD_KEY, "invalid_api_key"
    else:
        detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        message, code = detail, getattr(exc, "default_code", "error")
    response.data = error_body(code, message)
    return response
