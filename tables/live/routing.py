from django.conf import settings
from django.urls import path

from tables.live.consumer import TableConsumer


def routes(*, echo: bool) -> list:
    """The table's socket; with ``echo``, the load benchmark's bare echo sockets beside it
    (tests/benchmarks/echo.py, STYLE §22). A live site has no route to them, nor their code: they
    read nothing and need no login, and they are imported only when the benchmark asks for them."""
    patterns = [path("ws/tables/<int:table_id>/", TableConsumer.as_asgi())]
    if echo:
        from tests.benchmarks.echo import EchoConsumer, GroupEchoConsumer

        patterns += [path("ws/echo/", EchoConsumer.as_asgi()), path("ws/echo/<int:room>/", GroupEchoConsumer.as_asgi())]
    return patterns


websocket_urlpatterns = routes(echo=settings.ECHO_SOCKETS)  # the load benchmark sets ECHO_SOCKETS
