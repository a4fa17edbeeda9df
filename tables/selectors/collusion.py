"""Collusion in the open (RULING P72): at a staked table every seat sees which players are friends
with each other or took their seats from one client address.

The address is read once, where the seat is taken (config/addresses.py), and kept only as a
keyed digest of what the per-address limits count (an IPv6 client's /64; written by
tables/services/collusion.py): two seats can be told to share one, and neither the address nor
the digest ever reaches a page.
"""

from __future__ import annotations

import hashlib
import hmac
from itertools import combinations

from django.conf import settings

from core import addresses
from social.selectors import friend_ids
from tables.models import SeatAddress, Table


def address_digest(address: str) -> str | None:
    """The stored form of a client address; None when there is none to compare (a test client)."""
    if not address or address == addresses.UNKNOWN:
        return None
    key = settings.SECRET_KEY.encode()
    message = b"seat-address\0" + addresses.limit_key(address).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def badges(*, table: Table, seated: dict[int, int]) -> dict[int, dict[str, list[int]]]:
    """``seated``: position -> human user id. For each position, the positions it is friends with
    and the positions that share its address; only at a staked table, only positions with a mark."""
    if not table.stake or len(seated) < 2:
        return {}
    users = {user_id: position for position, user_id in seated.items()}
    digests = dict(SeatAddress.objects.filter(table=table, user_id__in=users).values_list("user_id", "digest"))
    marks: dict[int, dict[str, list[int]]] = {}
    friends_of = {user_id: friend_ids(user_id=user_id) for user_id in users}
    for a, b in combinations(sorted(users), 2):
        kinds = []
        if b in friends_of[a] or a in friends_of[b]:
            kinds.append("friends")
        if digests.get(a) and digests.get(a) == digests.get(b):
            kinds.append("address")
        for kind in kinds:
            for one, other in ((a, b), (b, a)):
                marks.setdefault(users[one], {}).setdefault(kind, []).append(users[other])
    return marks
