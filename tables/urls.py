from django.urls import path

from tables import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table_new"),
    path("play/<str:game>/", views.play_now, name="play_now"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
]
