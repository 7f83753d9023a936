from django.urls import path

from . import api

urlpatterns = [
    path("task-failures/", api.TaskFailureListView.as_view(), name="task-failures"),
    path("task-failures/<int:failure_id>/", api.TaskFailureView.as_view(), name="task-failure"),
]
