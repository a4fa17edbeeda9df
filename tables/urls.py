from django.urls import path

from tables import invite_views, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table_new"),
    path("play/<str:game>/", views.play_now, name="play_now"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/sockets/refused/", views.socket_refusal, name="socket_refusal"),
    path("tables/<int:table_id>/invite/", invite_views.invite_friend, name="table_invite_friend"),
    path("tables/<int:table_id>/invite/renew/", invite_views.invite_link_renew, name="table_invite_renew"),
    path("tables/<int:table_id>/privacy/", invite_views.table_privacy, name="table_privacy"),
    path("tables/invite/<str:token>/", invite_views.invite_landing, name="table_invite"),
]
