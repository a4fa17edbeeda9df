"""The site serves its own text font (issue 37): layout does not depend on a machine's fonts."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

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
    for licence in ("OFL-noto-sans.txt", "OFL-noto-sans-arabic.txt"):
        assert "SIL Open Font License" in (STATIC / "fonts" / licence).read_text()


def test_the_faces_cover_english_estonian_and_arabic_at_both_weights() -> None:
    for weight in ("400", "700"):
        faces = [face for face in FACES if f"font-weight: {weight};" in face]
        covered = [r for face in faces for r in _ranges(face)]
        for letter in "Aaz õäöüšžŠŽ بتثجحخ":
            assert any(low <= ord(letter) <= high for low, high in covered), (weight, letter)


def test_the_page_font_is_the_site_s_own_first() -> None:
    assert re.search(r'font-family: "Site Sans", system-ui', CSS)
