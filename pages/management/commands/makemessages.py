"""Django's ``makemessages``, which also reads the Jinja2 live fragments (issue 26).

Django extracts its own templates by turning them into Python for xgettext; the live
table fragments under ``templates/jinja2/`` are Jinja2, whose ``{% trans %}`` blocks and
``_()``/``ngettext()`` calls it does not know. For those files Jinja2's own extractor
lists the messages, written out as Python calls on their lines so that xgettext's
references still point at the template.

Run as ``python manage.py makemessages -a`` and ``makemessages -d djangojs -a``; the check
in tests/config/test_catalogues.py fails when the catalogues are not what this extracts.
"""

from __future__ import annotations

from django.core.management.commands import makemessages
from django.template import engines

JINJA_DIR = "templates/jinja2/"
KEYWORDS: list[str] = []


def jinja_as_python(source: str) -> str:
    """One gettext call per message, each on its template line (unknown arguments as None)."""
    environment = engines["jinja2"].env  # type: ignore[attr-defined]  # the Jinja2 backend's
    lines = [""] * (source.count("\n") + 1)
    for lineno, function, message in environment.extract_translations(source):
        args = message if isinstance(message, tuple) else (message,)
        if function in ("_", "gettext"):
            function = "gettext"
        call = f"{function}({', '.join('None' if arg is None else repr(arg) for arg in args)})"
        if args and args[0] is not None:
            lines[lineno - 1] += call + "; "
    return "\n".join(lines)


class BuildFile(makemessages.BuildFile):
    @property
    def is_templatized(self) -> bool:
        return super().is_templatized or (self.domain == "django" and JINJA_DIR in self.path)

    def preprocess(self) -> None:
        if self.domain == "django" and JINJA_DIR in self.path:
            with open(self.path, encoding="utf-8") as file:
                content = jinja_as_python(file.read())
            with open(self.work_path, "w", encoding="utf-8") as file:
                file.write(content)
            return
        super().preprocess()


class Command(makemessages.Command):
    build_file_class = BuildFile
    xgettext_options = [*makemessages.Command.xgettext_options, *KEYWORDS]

    def handle(self, *args, **options):
        # Only the product's own files: not the virtual environment, nor what tests leave behind.
        options["ignore_patterns"] = [
            *options.get("ignore_patterns", []),
            ".venv/*",
            "test-artifacts/*",
            ".local/*",
            "tests/*",
            "docs/*",
        ]
        options["no_obsolete"] = True
        # Files without line numbers: moving a string does not change the catalogues.
        options["add_location"] = options.get("add_location") or "file"
        return super().handle(*args, **options)
