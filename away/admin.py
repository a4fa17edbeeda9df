"""Push devices in the admin: seen and removed, never written by hand (the browser makes them)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from away.models import Device


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "created_at", "last_push_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "name", "created_at", "last_push_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
