"""API-key authentication. Kept apart from the views: DRF imports authentication classes while it loads."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication

from chat.selectors import api_client_by_key
from chat.services import api_client_used

ERR_BAD_KEY = "The API key is not valid, has been revoked or has expired."
AUTH_KEYWORDS = ("bearer", "api-key")


class ApiKeyAuthentication(BaseAuthentication):
    """`Authorization: Bearer <key>` (or `Api-Key <key>`) names an API client; no header is anonymous use."""

    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        keyword, _, key = header.partition(" ")
        if keyword.lower() not in AUTH_KEYWORDS or not key.strip():
            raise exceptions.AuthenticationFailed(ERR_BAD_KEY)
        client = api_client_by_key(key=key.strip())
        if client is None:
            raise exceptions.AuthenticationFailed(ERR_BAD_KEY)
        api_client_used(client=client)
        return (None, client)

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'
