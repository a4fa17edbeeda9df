from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/seasons/", views.seasons, name="seasons"),
    path("tournaments/new/", views.tournament_new, name="tournament_new"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/sign-up/", views.tournament_signup, name="tournament_signup"),
    path("time-zone/", views.time_zone_guess, name="time_zone_guess"),
]
