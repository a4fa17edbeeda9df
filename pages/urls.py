from django.urls import path

from pages import friends, pwa, views

urlpatterns = [
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("terms/", views.terms, name="terms"),
    path("privacy/", views.privacy, name="privacy"),
    # Issue 40: at the root, so the worker's scope is the whole site.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("friends/", friends.friends, name="friends"),
]
