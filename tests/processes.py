"""Child processes the suites start (a Celery worker, a gunicorn server)."""

import subprocess
import sys


def process_stop(process: subprocess.Popen, *, label: str) -> None:
    """Stop a child process (killing it if it will not stop) and show what it printed, if anything."""
    process.terminate()
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    if output and output.strip():
        sys.stderr.write(f"{label} output:\n{output}\n")
