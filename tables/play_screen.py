"""Small pieces of the play screen (issue 20) that the live fragment and the table page share.

Pure functions of an engine view or of a table's last attempt; no hidden information: only
what every viewer already sees.
"""

from __future__ import annotations


def tricks_done(view: dict | None) -> str:
    """A counter that grows whenever a trick is completed (round * 100 + tricks taken), for the
    page's end-of-trick sound; empty for SITA and outside a game."""
    if not view or "tricks_won" not in view:
        return ""
    return str(view["round_number"] * 100 + sum(view["tricks_won"]))


def card_words(code: str) -> str:
    """A card as a screen reader says it: "Queen of hearts", "Red joker"."""
    from tables.templatetags.table_tags import RANK_WORDS, SUIT_WORDS

    if code in ("RJ", "BJ"):
        return "Red joker" if code == "RJ" else "Black joker"
    rank, suit = code[:-1], code[-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def last_play(view: dict | None, names: list[str]) -> str:
    """The last card played to the trick on the table, for the polite announcer (issue 20):
    "Ann played Queen of hearts." (a joker with its HIGH or LOW). Empty outside a trick. Only
    what every viewer sees on the table."""
    trick = (view or {}).get("trick")
    if not trick or not trick.get("plays"):
        return ""
    play = trick["plays"][-1]
    joker = f" {play['joker'].upper()}" if play.get("joker") else ""
    return f"{names[play['seat']]} played {card_words(play['card'])}{joker}. "


def last_attempt_note(table) -> str:
    """What the table's lobby says after its last game was dismissed by vote (RULING S12): the
    players are back in this lobby, and each needs to read what happened and that their game
    pass came back (RULING P6). Empty when the table has not had a dismissed game."""
    from games.models import Match
    from tables.hooks import PASS_GAME
    from tables.models import DismissalVote

    match = table.matches.order_by("-attempt").only("pk", "status").first()
    if match is None or match.status != Match.Status.DISMISSED:
        return ""
    vote = DismissalVote.objects.filter(match_id=match.pk).first()
    counted = f" ({len(vote.yes_voters)} yes, {len(vote.no_voters)} no)" if vote else ""
    passes = (" Each player's game pass came back: it is reserved for the restart at this table, and leaving "
              "the table frees it." if table.game == PASS_GAME else "")
    return f"Game #{match.pk} was dismissed by a vote of the players{counted}.{passes} Get ready to start again."
