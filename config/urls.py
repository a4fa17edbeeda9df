from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config import health
from ops.views import metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("health/", health.health, name="health"),
    # Issue 26: the strings of static/js in the reader's language (the djangojs catalogue).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("metrics", metrics, name="metrics"),
    path("", include("accounts.urls")),
    path("", include("tables.urls")),
    path("", include("games.urls")),
    path("", include("payouts.urls")),
    path("", include("notifications.urls")),
    path("", include("social.urls")),
    path("", include("tournaments.urls")),
    path("", include("pages.urls")),
    path("", include("away.urls")),
]
