"""The kinds of notification, one record each; every sender names its kind from here.

A kind is everything the site says or decides per kind, in one :class:`Kind`: the code stored on
the rows, the label the preferences page shows, the sentence (``notifications.texts``) and how a
device notice of it is pushed (``away.push``). Adding a kind is one ``register`` line here, the
code that sends it and its words' translations (``locale/``); the models' ``choices`` is the
function :func:`choices`, so no migration follows. Whether a kind's notice is still true when an
away channel sends it is known by the app above that sends it, which registers its test in
``notifications.current`` (RULING P74).

``EMAIL_DEFAULT`` is off for every kind (RULING P69): a player chooses which ones also come by e-mail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MINUTE = 60
# The longest a device notice waits at a push service for a kind that stays true (RULING P74).
DAY = 24 * 60 * MINUTE
CODE_LENGTH = 32  # the models' ``kind`` columns


@dataclass(frozen=True)
class Kind:
    code: str  # stored on Notification, Preference and Sent rows: never renamed
    label: StrOrPromise  # the preferences page's line, the unsubscribe page's words
    # What the notification says: %(name)s the actor, %(game)s, %(table)s, %(title)s, %(round)s,
    # %(minutes)s, %(rank)s, %(players)s, %(prize)s from its row (notifications.texts). Lazy: read
    # in the reader's language.
    sentence: StrOrPromise
    ttl: int = DAY  # RULING P74: seconds a device notice stays worth showing
    urgent: bool = False  # RULING P74: pushed with Urgency high (it is about to happen)


_KINDS: dict[str, Kind] = {}
RETIRED = Kind("", _("Notification"), _("%(name)s sent you a notification."))


def register(kind: Kind) -> str:
    """Add ``kind`` (in the preferences page's order); its code, for the senders' constant."""
    if len(kind.code) > CODE_LENGTH or _KINDS.get(kind.code, kind) != kind:
        raise ValueError(f"notification kind {kind.code!r}: too long, or registered twice")
    _KINDS[kind.code] = kind
    return kind.code


def get(code: str) -> Kind:
    """The kind ``code``; ``RETIRED`` for a code no longer registered (a kind taken out while its
    rows wait out their days): a general sentence, pushed as a notice that stays true."""
    return _KINDS.get(code, RETIRED)


def known(code: object) -> bool:
    return isinstance(code, str) and code in _KINDS


def all_kinds() -> list[Kind]:
    return list(_KINDS.values())


def choices() -> list[tuple[str, StrOrPromise]]:
    """The models' ``choices`` (a callable: the migrations name it, so a new kind changes no column)."""
    return [(kind.code, kind.label) for kind in _KINDS.values()]


FRIEND_REQUEST = register(Kind("friend_request", _("Friend requests"), _("%(name)s asks to be your friend.")))
FRIEND_ACCEPTED = register(
    Kind("friend_accepted", _("Accepted friend requests"), _("%(name)s accepted your friend request."))
)
INVITE = register(
    Kind(
        "invite",
        _("Invitations to a table"),
        _("%(name)s invites you to a %(game)s table (#%(table)s)."),
        ttl=60 * MINUTE,
    )
)
REMATCH_OFFER = register(
    Kind("rematch_offer", _("Rematch offers"), _("%(name)s offers a rematch of %(game)s."), ttl=5 * MINUTE)
)
TABLE_STARTING = register(
    Kind(
        "table_starting",
        _("Your table is starting"),
        _("Your %(game)s table (#%(table)s) is starting."),
        ttl=5 * MINUTE,
        urgent=True,
    )
)
TOURNAMENT_STARTING = register(
    Kind(
        "tournament_starting",
        _("A tournament is starting"),
        _("The tournament %(title)s starts in %(minutes)s min."),
        ttl=5 * MINUTE,
        urgent=True,
    )
)
ROUND_READY = register(
    Kind(
        "round_ready",
        _("Your next tournament round is ready"),
        _("Round %(round)s of %(title)s: your table is ready."),
        ttl=5 * MINUTE,
        urgent=True,
    )
)
# A turn also ends at its clock's deadline, which the notice's data carries (away.push.ttl_of).
YOUR_TURN = register(
    Kind(
        "your_turn",
        _("It is your turn"),
        _("It is your turn at the %(game)s table (#%(table)s)."),
        ttl=15 * MINUTE,
        urgent=True,
    )
)
# Issue 53: the final standings, the player's place and prize, when a tournament they played ends.
TOURNAMENT_FINISHED = register(
    Kind(
        "tournament_finished",
        _("A tournament you played has ended"),
        _("%(title)s is over: you placed %(rank)s of %(players)s. %(prize)s"),
    )
)

# Shown in the site unless the player turned the kind off; by e-mail only if they turned it on.
SITE_DEFAULT = True
EMAIL_DEFAULT = False
# RULING P74: on for every kind; nothing reaches a device until its player adds it on the devices page.
PUSH_DEFAULT = True
