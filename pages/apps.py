from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "pages"
    verbose_name = "Rules, terms and privacy pages"
