"""WebSocket routes: one socket per table page (docs/design.md, "How a move flows")."""

from tables.routing import websocket_urlpatterns

__all__ = ["websocket_urlpatterns"]
