from django.urls import path

from .views import PageView, catalogue, manifest, service_worker

urlpatterns = [
    path("", PageView.as_view(), name="page"),
    path("i18n/<str:language>.json", catalogue, name="page-catalogue"),
    path("manifest.webmanifest", manifest, name="page-manifest"),
    path("sw.js", service_worker, name="page-service-worker"),
]
