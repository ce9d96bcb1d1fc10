import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_check_deploy_passes_with_production_variables():
    env = {**os.environ, "SECRET_KEY": secrets.token_urlsafe(60), "ALLOWED_HOSTS": "answers.example.org"}
    env.pop("DEBUG", None)
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_debug_is_off_unless_asked_for():
    code = "from django.conf import settings; print(settings.DEBUG)"
    env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    out = subprocess.run([sys.executable, "-c", f"import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
                          f"'veterans_ai.settings'); django.setup(); {code}"], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.stdout.strip() == "False"
