from __future__ import annotations

from collections.abc import Sequence

from operations.models import TaskFailure

ERROR_MAX_CHARS = 4000


def task_failure_record(*, task_name: str, task_id: str, args: Sequence[object], error: str, request_id: str = "",
                        retries: int = 0) -> TaskFailure:
    """Keep a task that failed for good where an operator sees it (the admin); once per task id."""
    row, _ = TaskFailure.objects.update_or_create(
        task_id=task_id or "",
        defaults={"task_name": task_name, "args": list(args), "error": error[:ERROR_MAX_CHARS],
                  "request_id": request_id, "retries": retries},
    )
    return row
