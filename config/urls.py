from django.contrib import admin
from django.urls import include, path

from config import health
from ops.views import metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("health/", health.health, name="health"),
    path("metrics", metrics, name="metrics"),
    path("", include("accounts.urls")),
    path("", include("tables.urls")),
    path("", include("games.urls")),
    path("", include("payouts.urls")),
    path("", include("pages.urls")),
]
