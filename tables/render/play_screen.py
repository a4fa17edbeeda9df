"""Small pieces of the play screen (issue 20) that the live fragment and the table page share.

Pure functions of an engine view or of a table's last attempt; no hidden information: only
what every viewer already sees.
"""

from __future__ import annotations

from django.utils.functional import lazy

# Inside a live render this reads the render's catalogue (core/i18n.py): it runs per seat.
from core.i18n import gettext as _
from core.i18n import text
from games.templatetags.card_tags import CARD_WORDS, RANK_WORDS
from tables import selectors


def tricks_done(view: dict | None) -> str:
    """A counter that grows whenever a trick is completed (round * 100 + tricks taken), for the
    page's end-of-trick sound; empty for SITA and outside a game."""
    if not view or "tricks_won" not in view:
        return ""
    return str(view["round_number"] * 100 + sum(view["tricks_won"]))


def card_words(code: str) -> str:
    """A card as a screen reader says it: "Queen of hearts", "Red joker"."""
    if code in ("RJ", "BJ"):
        return _("Red joker") if code == "RJ" else _("Black joker")
    rank, suit = code[:-1], code[-1]
    return text(CARD_WORDS[suit]) % {"rank": text(RANK_WORDS.get(rank, "10" if rank == "T" else rank))}


def last_play(view: dict | None, names: list[str]) -> str:
    """The last card played to the trick on the table, for the polite announcer (issue 20):
    "Ann played Queen of hearts." (a joker with its HIGH or LOW). Empty outside a trick. Only
    what every viewer sees on the table."""
    trick = (view or {}).get("trick")
    if not trick or not trick.get("plays"):
        return ""
    play = trick["plays"][-1]
    joker = f" {play['joker'].upper()}" if play.get("joker") else ""
    return (
        _("%(name)s played %(card)s.") % {"name": names[play["seat"]], "card": card_words(play["card"]) + joker} + " "
    )


def last_attempt_note(dismissed: selectors.Dismissal | None) -> str:
    """What the table's lobby says after its last game was dismissed by vote (RULING S12): the
    players are back in this lobby, and each needs to read what happened and that their game
    pass came back (RULING P6). Empty when the table has not had a dismissed game."""
    if dismissed is None:
        return ""
    # Lazy: the snapshot that holds this note is shared by viewers of every language (issue 26).
    return _note(dismissed.match_id, dismissed.counted, dismissed.passes)


def _note_text(match_id: int, counted: tuple[int, int] | None, passes: str | None) -> str:
    parts = [
        _("Game #%(number)s was dismissed by a vote of the players (%(yes)s yes, %(no)s no).")
        % {"number": match_id, "yes": counted[0], "no": counted[1]}
        if counted
        else _("Game #%(number)s was dismissed by a vote of the players.") % {"number": match_id}
    ]
    if passes == "spent":
        parts.append(
            _(
                "It was itself a restart, so its game passes stay used (a pass comes back only once): the next "
                "start takes one free pass from each player."
            )
        )
    elif passes:
        parts.append(
            _(
                "Each player's game pass came back: it is reserved for the restart at this table, and leaving "
                "the table frees it."
            )
        )
    parts.append(_("Get ready to start again."))
    return " ".join(parts)


_note = lazy(_note_text, str)
