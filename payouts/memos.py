"""A ledger row's memo in the reader's language (issue 26).

The services write each memo in English: a transfer is a record, read in the admin and checked by
``verify_matches``, and the rows written before the site had languages hold the same sentences.
The wallet shows each as one whole translated sentence, with its places, counts and the game's
ending put in their places; a memo these patterns do not know (an admin's own words when granting
coins or passes) is shown as it was written.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

from games.display.endings import ending_text

_FIXED = {
    "Welcome coins.": lambda: gettext("Welcome coins."),
    "Welcome passes.": lambda: gettext("Welcome passes."),
    "Seat taken at a staked table.": lambda: gettext("Seat taken at a staked table."),
    "Seat taken at a Sitaratas table.": lambda: gettext("Seat taken at a Sitaratas table."),
    "Left the table before the start.": lambda: gettext("Left the table before the start."),
    "Stake into the pot at the start.": lambda: gettext("Stake into the pot at the start."),
    "Game started.": lambda: gettext("Game started."),
    # RULING P83: a tournament's fee, pot, prizes and passes.
    "Tournament entry fee held.": lambda: gettext("Tournament entry fee held."),
    "Tournament entry fee into the pot.": lambda: gettext("Tournament entry fee into the pot."),
    "Tournament prize.": lambda: gettext("Tournament prize."),
    "Passes reserved for a tournament's rounds.": lambda: gettext("Passes reserved for a tournament's rounds."),
    "Tournament round: reserved pass moved to the table.": lambda: gettext(
        "Tournament round: reserved pass moved to the table."
    ),
    "Withdrew from the tournament before the start.": lambda: gettext("Withdrew from the tournament before the start."),
    "Tournament cancelled: too few players at the start.": lambda: gettext(
        "Tournament cancelled: too few players at the start."
    ),
    "Tournament cancelled by an admin.": lambda: gettext("Tournament cancelled by an admin."),
    "Withdrew from the tournament: passes for the rounds not played freed.": lambda: gettext(
        "Withdrew from the tournament: passes for the rounds not played freed."
    ),
    "Tournament over: passes for unplayed rounds freed.": lambda: gettext(
        "Tournament over: passes for unplayed rounds freed."
    ),
    "Restored pass used for the restart.": lambda: gettext("Restored pass used for the restart."),
    "Attempt dismissed by vote: pass restored.": lambda: gettext("Attempt dismissed by vote: pass restored."),
    "New attempt after a dismissed restart: a fresh pass.": lambda: gettext(
        "New attempt after a dismissed restart: a fresh pass."
    ),
    "Game aborted: stake refunded.": lambda: gettext("Game aborted: stake refunded."),
    "Game aborted: pass returned.": lambda: gettext("Game aborted: pass returned."),
    # RULING P50: why a staker took no share of the pot.
    "No share of the pot: you were away when the game ended.": lambda: gettext(
        "No share of the pot: you were away when the game ended."
    ),
    "No share of the pot: more than half of your decisions were played by the clock.": lambda: gettext(
        "No share of the pot: more than half of your decisions were played by the clock."
    ),
    "No share for anyone: every staker was away or played mostly by the clock. Stake refunded.": lambda: gettext(
        "No share for anyone: every staker was away or played mostly by the clock. Stake refunded."
    ),
}

# payouts.services.payout_memo: the staker's rank among the stakers, tied or not (RULING P42).
_POT_SHARES = {
    ("best", False): lambda: gettext("Pot share: best of the %(count)s stakers, place %(place)s in the game."),
    ("best", True): lambda: gettext("Pot share: tied best of the %(count)s stakers, place %(place)s in the game."),
    ("second", False): lambda: gettext("Pot share: second of the %(count)s stakers, place %(place)s in the game."),
    ("second", True): lambda: gettext("Pot share: tied second of the %(count)s stakers, place %(place)s in the game."),
    ("third", False): lambda: gettext("Pot share: third of the %(count)s stakers, place %(place)s in the game."),
    ("third", True): lambda: gettext("Pot share: tied third of the %(count)s stakers, place %(place)s in the game."),
    ("fourth", False): lambda: gettext("Pot share: fourth of the %(count)s stakers, place %(place)s in the game."),
    ("fourth", True): lambda: gettext("Pot share: tied fourth of the %(count)s stakers, place %(place)s in the game."),
}
_POT_SHARE = re.compile(
    r"Pot share: (?P<tied>tied )?(?P<rank>best|second|third|fourth) of the (?P<count>\d+) stakers, "
    r"place (?P<place>\d+) in the game\."
)
_OWN_STAKE = re.compile(r"Your stake back: you were the only player who staked \(place (?P<place>\d+) in the game\)\.")
_ADMIN_ADDED = re.compile(r"Welcome (?P<what>coins|passes)\. Account added by an admin: (?P<reason>.*)", re.S)
_CLOSED_EARLY = re.compile(r"Table closed before the start: (?P<reason>.*)", re.S)
# RULING P83: a prize names the player's rank in the final standings; RULING P19: an admin's
# cancellation names the admin and the reason, as an abort does.
_PRIZE = re.compile(r"Tournament prize: (?P<tied>tied )?place (?P<rank>\d+) of (?P<count>\d+) in the final standings\.")
_CANCELLED = re.compile(r"Tournament cancelled by (?P<name>.+?): (?P<reason>.*)", re.S)
_AFTER_ENDING = re.compile(r"(?P<ending>.*) (?P<what>Stake refunded|Pass returned)\.", re.S)


_RANKS = {"best": 1, "second": 2, "third": 3, "fourth": 4}


def pot_share_of(stored: str) -> tuple[int, int, bool] | None:
    """A payout memo's rank among the stakers (1 = best), their count and whether tied; None for
    any other memo (payouts.services.payout_memo writes them)."""
    found = _POT_SHARE.fullmatch(stored or "")
    if found is None:
        return None
    return _RANKS[found["rank"]], int(found["count"]), bool(found["tied"])


def memo_text(stored: str) -> str:
    """The memo ``stored`` in the active language; unknown wording as it is."""
    stored = stored or ""
    if stored in _FIXED:
        return _FIXED[stored]()
    if found := _POT_SHARE.fullmatch(stored):
        say = _POT_SHARES[(found["rank"], bool(found["tied"]))]
        return say() % {"count": found["count"], "place": found["place"]}
    if found := _ADMIN_ADDED.fullmatch(stored):
        if found["what"] == "coins":
            return gettext("Welcome coins. Account added by an admin: %(reason)s") % {"reason": found["reason"]}
        return gettext("Welcome passes. Account added by an admin: %(reason)s") % {"reason": found["reason"]}
    if found := _OWN_STAKE.fullmatch(stored):
        return gettext("Your stake back: you were the only player who staked (place %(place)s in the game).") % {
            "place": found["place"]
        }
    if found := _PRIZE.fullmatch(stored):
        values = {"rank": found["rank"], "count": found["count"]}
        if found["tied"]:
            return gettext("Tournament prize: tied place %(rank)s of %(count)s in the final standings.") % values
        return gettext("Tournament prize: place %(rank)s of %(count)s in the final standings.") % values
    if found := _CANCELLED.fullmatch(stored):
        return gettext("Tournament cancelled by %(name)s: %(reason)s") % {
            "name": found["name"],
            "reason": found["reason"],
        }
    if found := _CLOSED_EARLY.fullmatch(stored):
        # The reason is the host's stored ending ("Closed by the host, Ann.") or an admin's own words.
        return gettext("Table closed before the start: %(reason)s") % {"reason": ending_text(found["reason"])}
    if found := _AFTER_ENDING.fullmatch(stored):
        # Issue 37: the row's own heading says "Stake refunded" or "Pass returned"; the memo says
        # why. Repeating it after an admin's reason read "…refunding Stake refunded.".
        ending = ending_text(found["ending"]).strip()
        return ending if ending.endswith((".", "!", "?", "…")) else f"{ending}."
    return stored
