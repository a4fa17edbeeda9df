"""WebSocket routes: one socket per table page (docs/design.md, "How a move flows")."""

from django.urls import re_path

from config.websocket import UnknownPathConsumer
from notifications.routing import websocket_urlpatterns as page_routes
from tables.live.routing import websocket_urlpatterns as table_routes

# Last: any other path is closed cleanly (config/websocket.py), not an error in the router.
websocket_urlpatterns = [*table_routes, *page_routes, re_path(r"", UnknownPathConsumer.as_asgi())]

__all__ = ["websocket_urlpatterns"]
