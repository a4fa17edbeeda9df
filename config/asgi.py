"""ASGI entry point: HTTP through Django, WebSockets through Channels (Daphne serves both)."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry ready)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.websocket import SameOriginValidator  # noqa: E402
from tables.live.guard import OpeningLimit  # noqa: E402


def application_for(routes: list) -> ProtocolTypeRouter:
    """The site with the WebSocket ``routes`` (the load benchmark adds its own: tests/benchmarks/echo_site.py)."""
    return ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Openings per client address are counted before the session is read (RULING P51).
            "websocket": SameOriginValidator(OpeningLimit(AuthMiddlewareStack(URLRouter(routes)))),
        }
    )


application = application_for(websocket_urlpatterns)

# The first Celery task a process sends (a turn clock's countdown, a bot's turn) resolved and
# imported the broker's transport on a move's thread, in the middle of play: a quarter of a
# second of CPU under load, during which the process's sockets waited. Resolved here, at start;
# nothing connects until the first send.
from config.celery import app as celery_app  # noqa: E402

celery_app.producer_pool  # noqa: B018

# Issue 9: a full garbage collection walks every live object, and a Daphne process holding
# thousands of sockets has close to a million; each full pass stalled every socket of the
# process for 0.1–1 s (measured: 125 ms at 230,000 objects, 660 ms at 770,000), often enough
# that one landed among the 2,000-socket heartbeat pings.
# What start-up made (Django, the libraries) is frozen out of collection, and full passes come
# far less often; short-lived cycles are still collected young.
# Issue 27: the middle generation holds what survived the young passes since its last pass. At
# 50 young passes a pass, opening 2,500 sockets left it some hundreds of thousands of objects,
# and its passes stalled the process 230–435 ms each (10,000 idle sockets on one process,
# logged with gc.callbacks). At 10 a pass walks a fifth as many; full passes come after 500
# of them, as often as before (every 5,000 young passes, and the 25% rule still applies).
# Issue 34: database connections no longer wait for a full pass to be freed: each is given back
# to the process's pool when its request or call ends (config/database.py).
gc.freeze()
gc.set_threshold(10_000, 10, 500)

# Issue 9: a move runs on a pool thread while the event loop renders seats' views. Each time the
# move's thread gets an answer from PostgreSQL it must take the GIL back, and by default it waits
# up to 5 ms for the busy loop to let go: with a busy thread beside it a move took 63 ms at the
# default interval and 12 ms at 1 ms. In the load benchmark at 300 moves/s offered, two runs
# each way gave round trip p50 30–118 ms at 1 ms against 55–172 ms at 5 ms.
sys.setswitchinterval(0.001)
