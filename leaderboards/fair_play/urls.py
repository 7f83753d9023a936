from django.urls import path

from . import api

urlpatterns = [
    path("voids/", api.VoidListView.as_view(), name="voids"),
    path("voids/<int:void_id>/lift/", api.VoidLiftView.as_view(), name="void-lift"),
    path("flags/", api.FlagListView.as_view(), name="flags"),
    path("flags/<int:flag_id>/review/", api.FlagReviewView.as_view(), name="flag-review"),
]
