from django.urls import path

from pages import friends, views

urlpatterns = [
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("terms/", views.terms, name="terms"),
    path("privacy/", views.privacy, name="privacy"),
    path("friends/", friends.friends, name="friends"),
]
