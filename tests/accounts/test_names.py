"""Names: normalised, no invisible or direction-changing characters, no look-alikes of reserved
names or bots, at sign-up and rename (RULING P54)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.names import NameRefused, name_clean, name_html, skeleton
from tests.accounts.helpers import SIGNUP

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("instant_sign_up")]


@pytest.mark.parametrize(
    "name",
    [
        "Mari\u202eniam",  # right-to-left override
        "Mari\u2066x\u2069",  # isolates
        "\u200fMari",  # right-to-left mark
        "Ma\u200bri",  # zero-width space
        "Ma\u200dri",  # zero-width joiner
        "Ma\u2060ri",  # word joiner
        "\ufeffMari",  # byte order mark
        "Ma\u061cri",  # Arabic letter mark
        "Mari\u3164",  # Hangul filler: a letter that draws nothing
        "\u115fMari",  # Hangul choseong filler
        "Ma\uffa0ri",  # half-width Hangul filler
        "Ma\u180eri",  # Mongolian vowel separator
        "Ma\u2800ri",  # braille blank: neither a format character nor default-ignorable
    ],
)
def test_it_refuses_invisible_and_direction_changing_characters(name) -> None:
    with pytest.raises(NameRefused, match="invisible"):
        name_clean(name)


# The invisible characters that passed the check before default-ignorable code points and
# stray marks were refused: each posed as a reserved name or a bot with nothing to see.
INVISIBLE_MARKS = {
    "\u034f": "combining grapheme joiner",
    "\ufe0f": "variation selector 16",
    "\U000e0100": "variation selector 17",
    "\u180b": "Mongolian free variation selector",
    "\u17b4": "Khmer inherent vowel",
}


@pytest.mark.parametrize("mark", INVISIBLE_MARKS, ids=INVISIBLE_MARKS.values())
@pytest.mark.parametrize(
    "template",
    ["ad{}min", "staf{}f", "deleted{}-5", "b{}ot-x", "Ada (bot{})", "Ada (strong bot){}", "Ma{}ri"],
)
def test_it_refuses_default_ignorable_code_points_inside_a_name(template, mark) -> None:
    with pytest.raises(NameRefused, match="invisible"):
        name_clean(template.format(mark))


@pytest.mark.parametrize(
    "name",
    [
        "Mari\U000e0041\U000e007f",  # tag characters
        "Mari \u0301",  # an acute accent on a space
        "Ada (bot)\u0301",  # … on a bracket
        "Mari7\u0308",  # … a diaeresis on a digit
        "Mari\u064e",  # an Arabic vowel mark on a Latin letter
        "\u20ddMari",  # an enclosing mark on nothing
    ],
)
def test_it_refuses_marks_not_attached_to_a_letter_of_their_script(name) -> None:
    with pytest.raises(NameRefused, match="invisible"):
        name_clean(name)


@pytest.mark.parametrize(
    "name",
    [
        "O\u0303ie Ka\u0308a\u0308r",  # Estonian typed decomposed: NFKC composes it
        "مُحَمَّد",  # Arabic with its vowel marks
        "Nguyễn Ngũgĩ",
        "हिन्दी",  # Devanagari's virama and vowel signs
        "सिंह हिंदी",  # a nasal mark after a spacing vowel sign
        "ਸਿੰਘ",  # … in Gurmukhi
        "ไทย สมชาย",
    ],
)
def test_it_keeps_names_whose_marks_sit_on_their_own_letters(name) -> None:
    name_clean(name)


def test_a_reserved_word_with_accents_still_looks_reserved() -> None:
    with pytest.raises(NameRefused, match="reserved"):
        name_clean("Àdmin")


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "Administrator",
        "ａｄｍｉｎ",  # full width: NFKC makes it plain
        "Αdmin",  # Greek capital alpha
        "аdmin",  # Cyrillic a
        "ᎪDMIN",  # Cherokee A
        "A d m i n",
        "staff-helper",
        "Moderator Mari",
        "Mоderator",  # Cyrillic o
        "bot-mari",
        "ΒOT",  # Greek capital beta
        "deleted-7",
        "dеleted-7",  # Cyrillic e
    ],
)
def test_it_refuses_reserved_names_and_their_look_alikes(name) -> None:
    with pytest.raises(NameRefused, match="reserved"):
        name_clean(name)


@pytest.mark.parametrize(
    "name", ["Ada (strong bot)", "Аda (strong bot)", "ada (bot)", "Zed (bot)", "Greta ( easy bot )"]
)
def test_it_refuses_names_posing_as_bots(name) -> None:
    with pytest.raises(NameRefused, match="bots"):
        name_clean(name)


@pytest.mark.parametrize("name", ["Mari", "مريم", "Jüri Õun", "李雷", "Ada", "The admin's friend", "😀 Piet"])
def test_it_keeps_ordinary_names_in_any_script(name) -> None:
    assert name_clean(name) == name


def test_it_normalises_and_collapses_white_space() -> None:
    assert name_clean("  Ｍａｒｉ   Ｔａｍｍ ") == "Mari Tamm"
    assert name_clean("ﬁona") == "fiona"  # the ligature


def test_the_skeleton_is_uts39s() -> None:
    assert skeleton("𝔭𝒶ỿ𝕡𝕒ℓ") == skeleton("paypal")
    assert skeleton("раураl") == skeleton("paypal")  # Cyrillic
    assert skeleton("Mari") != skeleton("Mark")


def test_a_name_is_shown_isolated_and_escaped() -> None:
    assert name_html("مريم") == "<bdi>مريم</bdi>"
    assert name_html("<b>x</b>") == "<bdi>&lt;b&gt;x&lt;/b&gt;</bdi>"


def test_sign_up_as_deleted_own_id_is_refused(client) -> None:
    next_id = (User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": f"deleted-{next_id}"})
    assert response.status_code == 200
    assert "reserved" in response.content.decode()
    assert not User.objects.filter(username__startswith="deleted-").exists()


def test_sign_up_with_a_look_alike_of_admin_is_refused(client) -> None:
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "аdmin"})  # Cyrillic a
    assert "reserved" in response.content.decode()
    assert not User.objects.filter(email=SIGNUP["email"]).exists()


def test_sign_up_stores_the_normalised_username(client) -> None:
    client.post(reverse("account_signup"), {**SIGNUP, "username": "ｍａｒｉ"})
    assert User.objects.filter(username="mari").exists()


def test_the_refusal_speaks_the_players_language(client) -> None:
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "admin"}, HTTP_ACCEPT_LANGUAGE="et")
    assert "reserveeritud" in response.content.decode()


def test_a_rename_with_a_bidi_override_is_refused_and_changes_nothing(client, player) -> None:
    client.force_login(player)
    url = reverse("profile", args=[player.username])
    response = client.post(url, {"display_name": "\u202eFREE COINS", "language": ""})
    assert response.status_code == 200
    assert "invisible" in response.content.decode()
    player.refresh_from_db()
    assert player.display_name == ""


def test_a_rename_to_a_bot_name_is_refused(client, player) -> None:
    client.force_login(player)
    client.post(reverse("profile", args=[player.username]), {"display_name": "Ada (strong bot)", "language": ""})
    player.refresh_from_db()
    assert player.display_name == ""


def test_a_rename_is_stored_normalised(client, player) -> None:
    client.force_login(player)
    client.post(reverse("profile", args=[player.username]), {"display_name": "Ｐｉｅｔ  Ｋ", "language": ""})
    player.refresh_from_db()
    assert player.display_name == "Piet K"
