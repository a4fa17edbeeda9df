#!/usr/bin/env python
"""Django's command-line utility.

With DATABASE_URL and REDIS_URL set (production, CI) it uses them. Without them, as on a
developer's machine, it runs inside the embedded PostgreSQL and Redis of ``make run``
(``config.launch.Services``), so ``manage.py shell`` or ``makemigrations`` just work.
A bad setting stops it with the message that names the variable.
"""

import contextlib
import os
import sys


def local_services() -> contextlib.AbstractContextManager:
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        return contextlib.nullcontext()
    from config.launch import Services

    os.environ.setdefault("DJANGO_DEBUG", "true")  # a developer's machine, as `make run`
    return Services()


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    with local_services():
        try:
            settings.INSTALLED_APPS  # noqa: B018 (Django's runner would swallow this error and fail later, obscurely)
        except ImproperlyConfigured as error:
            sys.exit(f"Configuration error: {error}")
        execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
