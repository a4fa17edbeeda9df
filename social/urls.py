from django.urls import path

from social import views

urlpatterns = [
    path("friends/requests/", views.friend_request_send, name="friend_request_send"),
    path("friends/requests/<int:request_id>/accept/", views.friend_request_accept, name="friend_request_accept"),
    path("friends/requests/<int:request_id>/decline/", views.friend_request_decline, name="friend_request_decline"),
    path("friends/requests/<int:request_id>/cancel/", views.friend_request_cancel, name="friend_request_cancel"),
    path("friends/<int:user_id>/remove/", views.friend_remove, name="friend_remove"),
    path("blocks/<int:user_id>/", views.block, name="block"),
    path("blocks/<int:user_id>/remove/", views.unblock, name="unblock"),
]
