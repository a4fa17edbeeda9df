"""Friends and blocks in the admin: to read (a harassment complaint), not to write."""

from __future__ import annotations

from django.contrib import admin

from accounts.admin_tools import ViewOnlyAdmin
from social.models import Block, FriendRequest, Friendship


@admin.register(Friendship)
class FriendshipAdmin(ViewOnlyAdmin):
    list_display = ["user", "friend", "created_at"]
    search_fields = ["user__username", "friend__username"]
    raw_id_fields = ["user", "friend"]


@admin.register(FriendRequest)
class FriendRequestAdmin(ViewOnlyAdmin):
    list_display = ["sender", "recipient", "created_at", "quiet"]
    list_filter = ["quiet"]
    search_fields = ["sender__username", "recipient__username"]
    raw_id_fields = ["sender", "recipient"]


@admin.register(Block)
class BlockAdmin(ViewOnlyAdmin):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]
    raw_id_fields = ["blocker", "blocked"]
