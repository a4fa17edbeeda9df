from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.export import section_add
        from games.selectors import games_export, ratings_export

        section_add("games", games_export)  # RULING P55: the player's own data export
        section_add("ratings", ratings_export)
