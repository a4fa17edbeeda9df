"""The kinds of notification, one constant each; every sender names its kind from here.

A kind's label is what the preferences page shows. ``EMAIL_DEFAULT`` is off for every kind
(RULING P69): a player chooses which ones also come by e-mail.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

FRIEND_REQUEST = "friend_request"
FRIEND_ACCEPTED = "friend_accepted"
INVITE = "invite"
REMATCH_OFFER = "rematch_offer"
TABLE_STARTING = "table_starting"
TOURNAMENT_STARTING = "tournament_starting"
ROUND_READY = "round_ready"
YOUR_TURN = "your_turn"

CHOICES = [
    (FRIEND_REQUEST, _("Friend requests")),
    (FRIEND_ACCEPTED, _("Accepted friend requests")),
    (INVITE, _("Invitations to a table")),
    (REMATCH_OFFER, _("Rematch offers")),
    (TABLE_STARTING, _("Your table is starting")),
    (TOURNAMENT_STARTING, _("A tournament is starting")),
    (ROUND_READY, _("Your next tournament round is ready")),
    (YOUR_TURN, _("It is your turn")),
]
ALL = frozenset(kind for kind, _label in CHOICES)
LABELS = dict(CHOICES)

# Shown in the site unless the player turned the kind off; by e-mail only if they turned it on.
SITE_DEFAULT = True
EMAIL_DEFAULT = False
# RULING P74: on for every kind; nothing reaches a device until its player adds it on the devices page.
PUSH_DEFAULT = True
