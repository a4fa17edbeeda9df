from django.urls import path

from games import views

urlpatterns = [
    path("history/", views.history_list, name="history"),
    path("games/<int:match_id>/", views.match_detail, name="match"),
    path("games/<int:match_id>/record.json", views.match_record, name="match_record"),
    path("games/<int:match_id>/replay/", views.match_replay, name="match_replay"),
    path("games/<int:match_id>/reviews.json", views.match_reviews, name="match_reviews"),
    path("games/<int:match_id>/fairness.json", views.match_fairness, name="match_fairness"),
    path("ratings/", views.ratings, name="ratings"),
]
