from django.urls import path

from away import views

urlpatterns = [
    path("profile/devices/", views.devices, name="push_devices"),
    path("profile/devices/add/", views.device_add, name="push_device_add"),
    path("profile/devices/<int:device_id>/remove/", views.device_remove, name="push_device_remove"),
    path("profile/devices/forget/", views.device_forget, name="push_device_forget"),
    path("unsubscribe/<str:token>/", views.email_unsubscribe, name="email_unsubscribe"),
]
