"""How the OpenAPI schema describes the API key (imported when the app loads)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "chat.authentication.ApiKeyAuthentication"
    name = "apiKey"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "An API key issued in the admin (API clients). Without one, calls are anonymous "
                               "and held to a lower rate."}
