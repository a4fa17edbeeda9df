from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.my_profile, name="my_profile"),
    path("players/<str:username>/", views.profile, name="profile"),
]
