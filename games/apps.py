from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.personal_data import PersonalData, register
        from core import outbox
        from games import tasks
        from games.events import ReviewQueued, ReviewsWaiting
        from games.selectors import games_export, ratings_export
        from games.services import signatures_erase

        # Where the reviews' events go after commit (core/outbox.py): their tasks.
        outbox.handle(ReviewsWaiting, tasks.reviews_waiting)
        outbox.handle(ReviewQueued, tasks.review_queued)

        # RULINGS P23, P55: the games are the player's data and stay, under the anonymous name, as
        # other players' histories need them; only a signature's words go.
        register(
            PersonalData(
                "games",
                models=("games.MatchPlayer", "games.MatchEvent", "games.Signature", "games.Review"),
                export=games_export,
                erase=signatures_erase,
                kept=(
                    "Seats, moves, results and the bot's reviews of finished games stay under the anonymous "
                    "name (RULING P23); a signature's row stays, its text cleared (RULING S15)."
                ),
            )
        )
        register(
            PersonalData(
                "ratings",
                models=("games.Rating",),
                export=ratings_export,
                kept="Ratings follow from the games kept, and other players' ratings were computed with them.",
            )
        )
