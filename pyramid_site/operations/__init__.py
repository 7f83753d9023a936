"""Operations: what the service records for its operators. Today the record of failed Celery tasks (every task
that raised, outlived its time limit or gave up retrying), written from Celery's signals, shown in the admin and at
``/api/operations/task-failures/`` (staff only), counted in ``/metrics`` and pruned after
``PYRAMID_TASK_FAILURE_KEEP_DAYS``."""
