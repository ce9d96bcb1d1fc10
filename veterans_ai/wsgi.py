"""The WSGI application gunicorn serves (one BLAS thread per worker: veterans_ai.threads)."""

import os

from veterans_ai.threads import single_threaded_math

single_threaded_math()

from django.core.wsgi import get_wsgi_application  # noqa: E402 - after the thread limits

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "veterans_ai.settings")

application = get_wsgi_application()
