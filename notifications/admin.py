"""Notifications in the admin: read them (a player's complaint "I never got the invite"), never write them."""

from __future__ import annotations

from django.contrib import admin

from core.admin_tools import ViewOnlyAdmin
from notifications.models import Notification, Preference, Sent


@admin.register(Notification)
class NotificationAdmin(ViewOnlyAdmin):
    list_display = ["created_at", "recipient", "kind", "actor", "table", "read_at", "delivered_at", "expires_at"]
    list_filter = ["kind", ("read_at", admin.EmptyFieldListFilter)]
    search_fields = ["recipient__username", "actor__username"]
    raw_id_fields = ["recipient", "actor", "table"]
    date_hierarchy = "created_at"


@admin.register(Preference)
class PreferenceAdmin(ViewOnlyAdmin):
    list_display = ["user", "kind", *Preference.WAYS]
    list_filter = ["kind", *Preference.WAYS]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(Sent)
class SentAdmin(ViewOnlyAdmin):
    list_display = ["sent_at", "user", "channel", "kind", "table"]
    list_filter = ["channel", "kind"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "table"]
    date_hierarchy = "sent_at"
