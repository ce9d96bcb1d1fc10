from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self) -> None:
        from chat import schema  # noqa: F401  (registers the API key with the OpenAPI generator)
