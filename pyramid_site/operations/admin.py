from django.contrib import admin

from .models import TaskFailure
from .selectors import with_same_failures


@admin.register(TaskFailure)
class TaskFailureAdmin(admin.ModelAdmin):
    list_display = [
        "failed_at",
        "task_name",
        "kind",
        "exception_type",
        "short_message",
        "same_failures",
        "retries",
        "worker",
        "task_id",
    ]
    list_filter = ["task_name", "exception_type", "kind", "failed_at"]
    search_fields = ["task_name", "task_id", "exception_type", "exception_message", "args", "kwargs"]
    date_hierarchy = "failed_at"
    # written by the worker's signal only; an operator reads them (and may delete them)
    readonly_fields = [f.name for f in TaskFailure._meta.fields]

    def get_queryset(self, request):
        return with_same_failures(super().get_queryset(request))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="message")
    def short_message(self, failure: TaskFailure) -> str:
        return failure.exception_message[:120]

    @admin.display(description="same task and exception", ordering="same_failures")
    def same_failures(self, failure: TaskFailure) -> int:
        return failure.same_failures
