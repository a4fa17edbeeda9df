from django.urls import path

from tables.live.consumer import TableConsumer
from tables.echo import EchoConsumer, GroupEchoConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/echo/<int:room>/", GroupEchoConsumer.as_asgi()),
]
