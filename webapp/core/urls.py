from django.urls import path

from webapp.core import views

urlpatterns = [
    path("", views.home, name="home"),
]
