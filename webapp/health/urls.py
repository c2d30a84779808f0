from django.urls import path

from webapp.health import views

urlpatterns = [
    path("", views.health, name="health"),
]
