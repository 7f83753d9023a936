from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "pyramid_site.operations"
    label = "operations"
    verbose_name = "Operations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from celery.signals import task_failure

        from pyramid_site.metrics import collector_register

        from .metrics import TaskFailuresCollector
        from .receivers import on_task_failure

        # every process that runs tasks (workers, and the web process where tasks run in-process) records their
        # failures; the hard time limit's kill is announced by the worker's main process through the same signal
        task_failure.connect(on_task_failure, weak=False, dispatch_uid="pyramid_site.operations.task_failure")
        collector_register(TaskFailuresCollector())
