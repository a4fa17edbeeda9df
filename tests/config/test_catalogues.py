"""The translations are complete (issue 26): every catalogue translated, none fuzzy, the
compiled ``.mo`` files what the ``.po`` files say, the catalogues what ``makemessages`` extracts
now, and no template holding text outside the translation tags.

Reads the catalogues with polib, so it runs where gettext is not installed; only the
comparison with a fresh extraction needs xgettext (CI installs it, see .ci/run).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

from tests.helpers import needs_tool

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ["django", "djangojs"]
# The fresh extraction runs makemessages, which runs GNU gettext's xgettext.
NEEDS_GETTEXT = needs_tool(shutil.which("xgettext"), "gettext is not installed (apt-get install gettext)")
# What a template may show untranslated: symbols and codes that read the same in every language.
ALLOWED_LITERALS = {"SHA-256", "NT", "JOKER", "HTTP", "JSON"}
# The English names of game terms, shown as a tooltip beside the translated term where players
# of another language know the English one too (issue 26).
ALLOWED_LITERALS |= {"Sa'aydeh", "Dash Call", "Super Call", "Risk", "HIGH", "LOW"}


def _catalogue(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))


def _key(entry: polib.POEntry) -> tuple:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_is_translated_and_none_is_fuzzy(language: str, domain: str) -> None:
    catalogue = _catalogue(language, domain)
    assert len(catalogue) > 0
    untranslated = [entry.msgid for entry in catalogue.untranslated_entries() if not entry.obsolete]
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert untranslated == [], f"{language}/{domain}: untranslated entries"
    assert fuzzy == [], f"{language}/{domain}: fuzzy entries"
    plural_forms = int(re.search(r"nplurals=(\d+)", catalogue.metadata["Plural-Forms"]).group(1))
    for entry in catalogue:
        if entry.msgid_plural:
            assert len(entry.msgstr_plural) == plural_forms, entry.msgid
            assert all(entry.msgstr_plural.values()), f"{language}/{domain}: a plural form is empty: {entry.msgid}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogues_are_up_to_date(language: str, domain: str) -> None:
    po = {
        _key(entry): (entry.msgstr, dict(entry.msgstr_plural))
        for entry in _catalogue(language, domain)
        if entry.translated()
    }
    mo_path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"
    mo = {
        _key(entry): (entry.msgstr, {int(k): v for k, v in entry.msgstr_plural.items()})
        for entry in polib.mofile(str(mo_path))
        if entry.msgid
    }
    po = {key: (text, {int(k): v for k, v in plural.items()}) for key, (text, plural) in po.items()}
    assert mo == po, f"{mo_path} is stale: run `python manage.py compilemessages`"


@NEEDS_GETTEXT
def test_the_catalogues_hold_what_makemessages_extracts(tmp_path: Path, settings) -> None:
    # A copy of the tree, so the check never rewrites the committed catalogues.
    # Every package of the project (its apps, config, core) with the templates, static files and catalogues.
    packages = [path.name for path in ROOT.iterdir() if (path / "__init__.py").exists() and path.name != "tests"]
    for folder in (*packages, "templates", "static", "locale"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for domain in DOMAINS:
            call_command(
                "makemessages",
                locale=LANGUAGES,
                domain=domain,
                verbosity=0,
                **({"extensions": ["js"], "ignore_patterns": ["static/js/vendor/*"]} if domain == "djangojs" else {}),
            )
    finally:
        os.chdir(here)
    for language in LANGUAGES:
        for domain in DOMAINS:
            fresh = polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))
            committed = _catalogue(language, domain)
            missing = {_key(entry) for entry in fresh} - {_key(entry) for entry in committed}
            stale = {_key(entry) for entry in committed if not entry.obsolete} - {_key(entry) for entry in fresh}
            assert missing == set(), f"{language}/{domain}: strings in the code but not in the catalogue"
            assert stale == set(), f"{language}/{domain}: strings in the catalogue no longer in the code"


_DROP = [
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"\{% comment %\}.*?\{% endcomment %\}", re.S),
    re.compile(r"\{% blocktranslate.*?\{% endblocktranslate %\}", re.S),
    re.compile(r"\{% trans %\}.*?\{% endtrans %\}", re.S),
    re.compile(r"\{% translate .*?%\}", re.S),
    re.compile(r"<(script|style)\b.*?</\1>", re.S),
    re.compile(r"\{%.*?%\}", re.S),
    re.compile(r"\{\{.*?\}\}", re.S),
]
_TEXT = re.compile(r">([^<>]*)<")
_ATTRIBUTE = re.compile(r'\b(?:title|aria-label|placeholder|alt|label)="([^"]*)"')
_WORD = re.compile(r"[^\W\d_]{2,}")


def literals(source: str) -> list[str]:
    """Words a reader would see that are outside every translation tag of a template."""
    for pattern in _DROP:
        source = pattern.sub(" ", source)
    found = []
    for text in [*_TEXT.findall(source), *_ATTRIBUTE.findall(source)]:
        words = (
            [] if text.strip() in ALLOWED_LITERALS else [w for w in _WORD.findall(text) if w not in ALLOWED_LITERALS]
        )
        if words:
            found.append(" ".join(text.split()))
    return found


def test_the_literal_check_finds_an_untranslated_word() -> None:
    assert literals('<p title="Dealer">{% translate "Round" %} {{ n }}</p><b>Trick</b>') == ["Trick", "Dealer"]
    assert literals("<p>{{ _('Round') }} {% trans %}Cards{% endtrans %} ♠ 12 NT</p>") == []


def test_the_literal_check_reads_the_jinja2_live_fragments() -> None:
    # The live fragments' own tags: calls, shared blocks and ``{% trans %}`` blocks.
    fragment = (
        '{% call shared_by_version(snap, "sheet") %}<dt>Round</dt><dd>{{ _("Trump") }}</dd>{% endcall %}'
        '<p title="{{ _(\'Dealer\') }}">{% trans %}Cards{% endtrans %} {{ ngettext("%(num)s card", '
        '"%(num)s cards", n) }}</p><span aria-label="Current trick"></span>'
    )
    assert literals(fragment) == ["Round", "Current trick"]


def test_no_template_holds_an_untranslated_literal() -> None:
    found = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        words = literals(path.read_text(encoding="utf-8"))
        if words:
            found[str(path.relative_to(ROOT))] = words
    assert found == {}


# What a script shows a reader: text put into the page, a title, a dialogue, an error's message.
_JS_SINK = re.compile(
    r"(?:\.(?:textContent|innerText|title|placeholder)\s*=(?!=)|\b(?:alert|confirm|Error)\(|"
    r"setAttribute\(\s*[\"'](?:title|aria-label|placeholder)[\"']\s*,)([^;\n]*)"
)
_JS_TRANSLATED = re.compile(r"\b(?:gettext|ngettext|pgettext)\((?:\s*([\"'`])(?:\\.|(?!\1).)*\1\s*,?)+")
_JS_COMPARED = re.compile(r"[!=]==?\s*([\"'`])(?:\\.|(?!\1).)*\1")  # a code compared, not shown
_JS_STRING = re.compile(r"([\"'`])((?:\\.|(?!\1).)*)\1")
_JS_COMMENT = re.compile(r"^\s*//[^\n]*|/\*.*?\*/", re.S | re.M)


def js_literals(source: str) -> list[str]:
    """Texts a script shows that do not pass through ``gettext()`` (Django's JavaScript catalogue)."""
    found = []
    for sink in _JS_SINK.finditer(_JS_COMMENT.sub(" ", source)):
        for _quote, text in _JS_STRING.findall(_JS_COMPARED.sub(" ", _JS_TRANSLATED.sub(" ", sink.group(1)))):
            text = re.sub(r"\$\{.*?\}", " ", text)
            if [word for word in _WORD.findall(text) if word not in ALLOWED_LITERALS]:
                found.append(text)
    return found


def test_the_script_check_finds_an_untranslated_text() -> None:
    script = """
    // verdict.textContent = "In a comment";
    verdict.textContent = ok ? gettext("✓ Every check passed.") : "✗ A check failed.";
    throw new Error(`the site answered ${status}`);
    label.textContent = interpolate(gettext("%(check)s: "), { check: name }, true);
    el.textContent = `${seconds} s`;
    room.textContent = next.write === "players" ? gettext("Players' chat") : gettext("Spectators' chat");
    button.title = gettext('Report') + " " + name;
    """
    assert js_literals(script) == ["✗ A check failed.", "the site answered  "]


def test_no_script_shows_an_untranslated_text() -> None:
    found = {}
    for path in sorted((ROOT / "static" / "js").glob("*.js")):  # vendor/ is others' code
        texts = js_literals(path.read_text(encoding="utf-8"))
        if texts:
            found[str(path.relative_to(ROOT))] = texts
    assert found == {}


def test_the_extraction_reads_jinja2_calls_and_blocks() -> None:
    # What makes the makemessages comparison above fail for a new text of a live fragment.
    from pages.management.commands.makemessages import jinja_as_python

    python = jinja_as_python(
        '<b>{{ _("Trump") }}</b>\n{% trans %}Cards{% endtrans %} '
        '{{ ngettext("%(num)s card", "%(num)s cards", n) }} {{ pgettext("vote", "Open") }}'
    )
    assert python.splitlines() == [
        "gettext('Trump'); ",
        "gettext('Cards'); ngettext('%(num)s card', '%(num)s cards', None); pgettext('vote', 'Open'); ",
    ]


@NEEDS_GETTEXT
def test_the_extraction_reads_the_scripts(tmp_path: Path, settings) -> None:
    # What makes the makemessages comparison above fail for a new text of a script.
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "probe.js").write_text('el.textContent = gettext("A probe of the scripts");\n')
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        call_command("makemessages", locale=["et"], domain="djangojs", verbosity=0, extensions=["js"])
    finally:
        os.chdir(here)
    fresh = polib.pofile(str(tmp_path / "locale" / "et" / "LC_MESSAGES" / "djangojs.po"))
    assert [entry.msgid for entry in fresh] == ["A probe of the scripts"]


# Issue 53: xgettext reads no call inside an f-string's braces, so "Add bot" (tables/render/widgets.py)
# was never extracted and showed in English on every Estonian and Arabic table.
_GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy"}


def gettext_literals(source: str) -> set[tuple]:
    """(context, text, plural) of every gettext call with literal arguments in Python ``source``,
    wherever it stands, an f-string's braces included."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        texts = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
        if name not in _GETTEXT_NAMES or not texts or len(texts) != len(node.args[: len(texts)]):
            continue
        if name.startswith("pgettext"):
            found.add((texts[0], texts[1], "") if len(texts) > 1 else ("", texts[0], ""))
        elif name.startswith("ngettext"):
            found.add(("", texts[0], texts[1] if len(texts) > 1 else ""))
        else:
            found.add(("", texts[0], ""))
    return found


def test_the_literal_finder_reads_a_call_inside_an_f_string() -> None:
    assert ("", "Add bot", "") in gettext_literals("html = f\"<b>{escape(_('Add bot'))}</b>\"")


def test_every_text_the_python_code_translates_is_in_every_catalogue() -> None:
    packages = [path for path in ROOT.iterdir() if (path / "__init__.py").exists() and path.name != "tests"]
    wanted: dict[tuple, str] = {}
    for package in packages:
        for path in package.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for key in gettext_literals(path.read_text(encoding="utf-8")):
                wanted.setdefault(key, str(path.relative_to(ROOT)))
    for language in LANGUAGES:
        held = {_key(entry) for entry in _catalogue(language, "django") if not entry.obsolete}
        missing = {key: path for key, path in wanted.items() if key not in held}
        assert missing == {}, f"{language}: translated in the code but missing from the catalogue"
