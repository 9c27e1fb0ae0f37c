"""The ASGI application: what uvicorn serves (`make run`, the Dockerfile, compose).

Django's synchronous views run on a pool of ``WEB_THREADS`` threads per process (a2wsgi's
WSGI adapter: one hand-over per request, as fast as a threaded WSGI server); in front of
them, :class:`api.push.PushRouter` serves the waiting readers (long-polls and event
streams) on the event loop, so that a waiting client costs no thread.
"""

import gc
import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application


def _application():  # type: ignore[no-untyped-def]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django_application = get_wsgi_application()  # sets Django up: the app's code after
    from django.conf import settings

    from api.push import PushRouter

    return PushRouter(
        WSGIMiddleware(django_application, workers=settings.WEB_THREADS),
        threads=settings.PUSH_THREADS,
    )


application = _application()
# What is loaded by now lives as long as the process: keep the collector from walking it
# again and again (shorter pauses with thousands of waiting readers).
gc.freeze()
