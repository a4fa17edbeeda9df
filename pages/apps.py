from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "pages"
    verbose_name = "Rules, terms and privacy pages"

    def ready(self) -> None:
        from pages.friends import lobby_friends
        from tables import lobby_slots

        lobby_slots.register(lobby_friends, place=lobby_slots.FRIENDS)  # issue 39: friends online, in the lobby
