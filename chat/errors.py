"""The API's one error shape, {"error": {"code", "message"}}, its messages, and the error pages: JSON under
/api/, HTML elsewhere."""

from __future__ import annotations

from django.http import JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response

ERR_NOT_JSON = "The request body must be JSON: {\"question\": \"...\"}."
ERR_MEDIA_TYPE = "Send the body as JSON with the header Content-Type: application/json (got {media_type})."
ERR_TOO_DEEP = "The JSON body is nested too deeply."
ERR_SURROGATE = "The request contains invalid Unicode (a lone surrogate). Send UTF-8 text."
ERR_TOO_LARGE = "The request body is too large: at most {limit} bytes."
ERR_THROTTLED = "Too many requests. Try again in {wait} seconds."
ERR_NOT_FOUND = "Not found."
ERR_METHOD = "Method {method} is not allowed here."
ERR_UNAVAILABLE = "The service is briefly unavailable. Please try again in a minute."
ERR_INTERNAL = "Something went wrong. Please try again, or call VA at 1-800-827-1000."


class ApiError(exceptions.APIException):
    """An API error with its own code and message."""

    def __init__(self, code: str, message: str, http_status: int = status.HTTP_400_BAD_REQUEST) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = http_status
        self.error_code = code


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def error_response(code: str, message: str, http_status: int = status.HTTP_400_BAD_REQUEST) -> Response:
    return Response(error_body(code, message), status=http_status)


def not_found(request, exception):
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", ERR_NOT_FOUND), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("internal_error", ERR_INTERNAL), status=500)
    return defaults.server_error(request)
