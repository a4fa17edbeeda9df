"""The load benchmark's site: the live site with the bare echo sockets (tests/benchmarks/echo.py)
routed beside its own, which Daphne serves for the load benchmark (load.py ``ECHO_SITE``); the live
site has no route to them."""

from __future__ import annotations

from django.urls import path

from config.asgi import application_for
from config.routing import websocket_urlpatterns
from tests.benchmarks.echo import EchoConsumer, GroupEchoConsumer

# Before the site's own: its last route closes every path it does not know (config/routing.py).
routes = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/echo/<int:room>/", GroupEchoConsumer.as_asgi()),
    *websocket_urlpatterns,
]
application = application_for(routes)
