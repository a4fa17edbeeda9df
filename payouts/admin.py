"""Admin: read-only ledgers (RULING P7), coin and pass grants (P4, P6).

Nothing here writes a ledger row itself: grants go through the services. Aborting a game
(P8) is an action on the games list (games/admin.py).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from core.admin_tools import ViewOnlyAdmin, action_page
from payouts import flows, services
from payouts.models import Account, Entry, Transfer


class GrantForm(forms.Form):
    amount = forms.IntegerField(label=gettext_lazy("Amount"), min_value=1, max_value=1_000_000)
    # RULING P19: required; shown to the player and kept in the admin log.
    memo = forms.CharField(
        label=gettext_lazy("Memo"), max_length=200, help_text=gettext_lazy("Why (shown to the player).")
    )


def _grant_action(model_admin, request, queryset, *, what: str, title: str, done, grant):
    """An intermediate page asks how many and why, then grants to each selected account's owner.
    ``what`` names the asset in the admin log (English: the log is the record, whoever reads it);
    ``title`` and ``done(amount, count)`` speak the admin's language."""
    users = list(User.objects.filter(pk__in=queryset.exclude(user=None).values("user"), is_bot=False))
    form = GrantForm(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        amount, memo = form.cleaned_data["amount"], form.cleaned_data["memo"]
        for user in users:
            grant(user=user, amount=amount, by=request.user, memo=memo)
            model_admin.log_change(request, user, f"Granted {amount} {what}: {memo}")
        messages.success(request, done(amount, len(users)))
        return None
    return action_page(model_admin, request, queryset, form, title, users=users)


@admin.register(Account)
class AccountAdmin(ViewOnlyAdmin):
    list_display = ["key", "kind", "user", "owner_kind", "owner_id", "balance"]
    list_filter = ["kind", "asset"]
    search_fields = ["key", "user__username", "user__display_name"]
    actions = ["grant_coins", "grant_passes"]

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None and request.user.is_staff  # the list and its actions, never an edit form

    @admin.action(description=gettext_lazy("Grant coins to the owners of the selected accounts"))
    def grant_coins(self, request, queryset):
        def done(amount: int, count: int) -> str:
            return ngettext(
                "Granted %(amount)s coins to %(count)d player.", "Granted %(amount)s coins to %(count)d players.", count
            ) % {"amount": amount, "count": count}

        return _grant_action(
            self, request, queryset, what="coins", title=_("Grant coins"), done=done, grant=services.coins_grant
        )

    @admin.action(description=gettext_lazy("Grant game passes to the owners of the selected accounts"))
    def grant_passes(self, request, queryset):
        def done(amount: int, count: int) -> str:
            return ngettext(
                "Granted %(amount)s passes to %(count)d player.",
                "Granted %(amount)s passes to %(count)d players.",
                count,
            ) % {"amount": amount, "count": count}

        return _grant_action(
            self, request, queryset, what="passes", title=_("Grant game passes"), done=done, grant=services.pass_grant
        )


class EntryInline(admin.TabularInline):
    model = Entry
    fields = (
        "account",
        "amount",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Transfer)
class TransferAdmin(ViewOnlyAdmin):
    list_display = ["created_at", "asset", "reason", "user", "table", "match", "by", "memo"]
    list_filter = ["asset", "reason"]
    search_fields = ["user__username", "memo"]
    date_hierarchy = "created_at"
    inlines = [EntryInline]

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_staff

    def get_urls(self):
        # RULING P72: the report of pairs with repeated one-sided coin flows, beside the ledger it reads.
        report = self.admin_site.admin_view(self.coin_flows_view)
        return [path("coin-flows/", report, name="payouts_coin_flows"), *super().get_urls()]

    def coin_flows_view(self, request: HttpRequest) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": _("One-sided coin flows"),
            "opts": self.model._meta,
            "flows": flows.one_sided_flows(),
            "min_games": flows.MIN_GAMES,
            "share": round(flows.MOST_SHARE * 100),
        }
        return TemplateResponse(request, "admin/payouts/coin_flows.html", context)
