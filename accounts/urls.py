from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.my_profile, name="my_profile"),
    path("language/", views.language_set, name="set_language"),
    path("players/<str:username>/", views.profile, name="profile"),
]
