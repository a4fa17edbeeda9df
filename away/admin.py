"""Push devices in the admin: seen and removed (saying why, RULING P19), never written by hand (the
browser makes them)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from away.models import Device
from core.admin_tools import ReasonedAdmin


@admin.register(Device)
class DeviceAdmin(ReasonedAdmin):
    list_display = ("user", "name", "created_at", "last_push_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "name", "created_at", "last_push_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # every field is the browser's
