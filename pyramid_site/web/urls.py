from django.urls import path

from .views import PageView, catalogue

urlpatterns = [
    path("", PageView.as_view(), name="page"),
    path("i18n/<str:language>.json", catalogue, name="page-catalogue"),
]
