from django.urls import path

from payouts import views

urlpatterns = [path("wallet/", views.wallet, name="wallet")]
