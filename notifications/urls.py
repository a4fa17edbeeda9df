from django.urls import path

from notifications import views

urlpatterns = [
    path("notifications/", views.notifications_page, name="notifications"),
    path("notifications/bell/", views.bell, name="bell"),
    path("notifications/<int:notification_id>/open/", views.notification_open, name="notification_open"),
    path("notifications/read-all/", views.notifications_read_all, name="notifications_read_all"),
    path("notifications/settings/", views.notification_settings, name="notification_settings"),
]
