"""The site serves its own text font (issue 37): layout does not depend on a machine's fonts."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders

STATIC = Path(settings.BASE_DIR) / "static"
CSS = (STATIC / "css" / "site.css").read_text()
FACES = re.findall(r"@font-face \{(.*?)\}", CSS, re.S)


def _ranges(face: str) -> list[tuple[int, int]]:
    found = []
    for part in re.search(r"unicode-range: ([^;]*)", face)[1].split(","):
        low, _, high = part.strip().removeprefix("U+").partition("-")
        found.append((int(low, 16), int(high or low, 16)))
    return found


def test_every_face_is_a_woff2_in_static_with_its_licence_beside_it() -> None:
    assert FACES
    for face in FACES:
        assert 'font-family: "Site Sans"' in face and "local(" not in face  # never a machine's own copy
        (url,) = re.findall(r'url\("\.\./(fonts/[^"]+)"\)', face)
        assert (STATIC / url).read_bytes()[:4] == b"wOF2"
    for licence in ("OFL-noto-sans.txt", "OFL-noto-sans-arabic.txt", "OFL-noto-sans-symbols-2.txt"):
        assert "SIL Open Font License" in (STATIC / "fonts" / licence).read_text()


def test_the_faces_cover_english_estonian_and_arabic_at_both_weights() -> None:
    for weight in ("400", "700"):
        faces = [face for face in FACES if f"font-weight: {weight};" in face]
        covered = [r for face in faces for r in _ranges(face)]
        for letter in "Aaz õäöüšžŠŽ بتثجحخ":
            assert any(low <= ord(letter) <= high for low, high in covered), (weight, letter)


def test_the_page_font_is_the_site_s_own_first() -> None:
    assert re.search(r'font-family: "Site Sans", system-ui', CSS)


def test_the_suits_and_the_joker_star_come_from_the_site_s_own_symbol_face() -> None:
    # Cards are drawn with ♠♥♦♣ (and ★ for a joker): a machine's symbol font must not size them.
    # (The layout browser check sees this face loaded on a table in play.)
    (face,) = [face for face in FACES if "symbols" in face]
    assert "font-weight: 400 700;" in face  # one face for the bold card corners too
    assert sorted(_ranges(face)) == [(0x2605, 0x2605), (0x2660, 0x2667)]  # loaded only where a suit is shown
    (url,) = re.findall(r'url\("\.\./(fonts/[^"]+)"\)', face)
    assert finders.find(url) == str(STATIC / url)
    assert "SIL Open Font License" in (STATIC / "fonts" / "OFL-noto-sans-symbols-2.txt").read_text()
