from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.my_profile, name="my_profile"),
    path("profile/data/", views.my_data, name="my_data"),
    path("profile/data.json", views.my_data_download, name="my_data_download"),
    path("profile/delete/", views.account_delete, name="account_delete"),
    path("language/", views.language_set, name="set_language"),
    path("players/<str:username>/", views.profile, name="profile"),
]
