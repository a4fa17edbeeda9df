"""The project: settings, URLs, the ASGI and Celery apps, and the commands that run it.

``settings`` is the one settings module, every knob from the environment through ``env``'s
readers, which fail loudly (docs/style.md §12; docs/configuration.md is generated from them).
``urls``, ``routing`` (the WebSocket routes) and ``websocket`` (which pages may open a socket),
``asgi`` (HTTP through Django, sockets through Channels), ``serve`` (Daphne on uvloop),
``celery`` (the Celery app and its queues), ``database`` (one connection pool per Daphne
process), ``hardening`` (odd requests refused before any view), ``health`` (the load balancer's
endpoint), ``context_processors`` and ``formats``. ``launch`` is the two README commands, ``make
run`` and ``make test``; ``processes`` starts, waits for and stops every process they and the
tests start; ``proxy`` renders deploy/nginx/ and runs nginx as a child process. Importing the
package loads the Celery app, so ``@shared_task`` binds to it.
"""

from config.celery import app as celery_app

__all__ = ("celery_app",)
