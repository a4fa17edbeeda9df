from django.urls import path

from tables import views
from tables.views import invitations

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table_new"),
    path("play/<str:game>/", views.play_now, name="play_now"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/sockets/refused/", views.socket_refusal, name="socket_refusal"),
    path("tables/<int:table_id>/invite/", invitations.invite_friend, name="table_invite_friend"),
    path("tables/<int:table_id>/invite/renew/", invitations.invite_link_renew, name="table_invite_renew"),
    path("tables/<int:table_id>/privacy/", invitations.table_privacy, name="table_privacy"),
    path("tables/invite/<str:token>/", invitations.invite_landing, name="table_invite"),
    path("tables/challenge/<int:user_id>/", invitations.challenge, name="table_challenge"),
]
