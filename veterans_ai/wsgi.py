"""The WSGI application gunicorn serves (one BLAS thread per worker: veterans_ai.threads)."""

import logging
import os

from veterans_ai.threads import single_threaded_math

single_threaded_math()

from django.core.wsgi import get_wsgi_application  # noqa: E402 - after the thread limits

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "veterans_ai.settings")

application = get_wsgi_application()


def _warm_up() -> None:
    """Load now what a worker's first answer would otherwise load while a veteran waits (the configured
    generator, the local model's weights: about 0.7 s). No database access: a worker must start while the
    database is down, and then answers 503 until it is back."""
    from django.conf import settings

    from knowledge.embeddings import embedding_provider_get
    from verification.generators import generator_get

    try:
        generator_get(name=settings.LLM_PROVIDER)
        if settings.EMBEDDING_PROVIDER == "local":
            embedding_provider_get().embed(["warm up"])
    except Exception as exc:  # a cold start is slower, not broken
        logging.getLogger(__name__).warning("warm-up skipped: %s: %s", type(exc).__name__, exc)


_warm_up()
