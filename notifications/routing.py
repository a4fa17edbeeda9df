from django.urls import path

from notifications.consumer import PageConsumer

# The bell's socket of a page with no table socket (notifications/live.py).
websocket_urlpatterns = [path("ws/me/", PageConsumer.as_asgi())]
