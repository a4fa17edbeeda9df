from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ["username", "display_name", "email", "is_bot", "bot_level", "is_staff", "date_joined"]
    list_filter = ["is_bot", "bot_level", "is_staff", "is_active"]
    search_fields = ["username", "display_name", "email"]
    fieldsets = [*BaseUserAdmin.fieldsets, ("Player", {"fields": ["display_name", "is_bot", "bot_level"]})]
    # A bot's level is what its past games were played at (RULING P45): never edited.
    readonly_fields = ["bot_level"]
