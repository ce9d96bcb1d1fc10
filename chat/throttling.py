"""Throttles, counted in the default cache (Redis in production, shared by every web process)."""

from __future__ import annotations

from django.conf import settings
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from chat.models import ApiClient


class AnonymousRateThrottle(SimpleRateThrottle):
    """Anonymous callers, counted by address."""

    scope = "anon"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]  # read now, not when the class was defined

    def get_cache_key(self, request, view):
        if isinstance(request.auth, ApiClient):
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ClientRateThrottle(SimpleRateThrottle):
    """API clients, counted by key, at their own rate when they have one."""

    scope = "client"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]

    def allow_request(self, request, view):
        client = request.auth if isinstance(request.auth, ApiClient) else None
        if client is None:
            return True
        if client.rate:
            self.rate = client.rate
            self.num_requests, self.duration = self.parse_rate(client.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": request.auth.prefix}


class ChatThrottle(SimpleRateThrottle):
    """Questions from the chat page, counted by address like anonymous API calls."""

    scope = "chat"

    def get_rate(self):
        return settings.CHAT_RATE

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
