"""WebSocket routes: one socket per table page (DESIGN.md, "How a move flows")."""

from tables.routing import websocket_urlpatterns

__all__ = ["websocket_urlpatterns"]
