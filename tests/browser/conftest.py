"""A real server (gunicorn, 2 workers, production settings on loopback HTTP) on a database of its own with
the bundled corpus, and headless Chromium from Debian driven by Selenium.

`make test` installs Debian's chromium and chromium-driver when they are missing; without them (a bare
pytest run on another machine) these tests skip, saying so.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.processes import process_stop

REPO = Path(__file__).resolve().parents[2]
OUTPUT = REPO / "test-output"
AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
DATABASE = "veterans_ai_browser"
ADMIN_USER, ADMIN_PASSWORD = "reviewer", secrets.token_urlsafe(16)
CHROME_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--lang=en-US",
)


@dataclass(frozen=True)
class Server:
    url: str
    env: dict[str, str]

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=self.env, capture_output=True,
                              text=True, timeout=600, check=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_serving(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/v1/health/", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the server at {url} did not answer within {timeout:.0f} s")


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.skip("Debian's chromium and chromium-driver are not installed (`make test` installs them)")
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG")},
        "EMBEDDED_DATABASE_NAME": DATABASE, "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
        "CHAT_RATE": "1000/min", "API_RATE_ANON": "1000/min", "CONN_MAX_AGE": "0",
        "DJANGO_SUPERUSER_PASSWORD": ADMIN_PASSWORD, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
    }
    server = Server(url=f"http://127.0.0.1:{port}", env=env)
    server.manage("migrate", "--no-input")
    server.manage("ingest", "--bundled")  # idempotent: only new or changed chunks are embedded
    # Every run starts from no answers, conversations or sessions; the corpus stays.
    server.manage("shell", "-c", "from django.db import connection; connection.cursor().execute("
                  "'TRUNCATE knowledge_answeredquestion, chat_conversation, chat_answerfeedback, django_session, "
                  "auth_user CASCADE')")
    server.manage("createsuperuser", "--no-input", "--username", ADMIN_USER, "--email", "reviewer@example.org")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "veterans_ai.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
         "--timeout", "60", "--log-level", "warning"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        _wait_until_serving(server.url, process)
        yield server
    finally:
        process_stop(process, label="gunicorn")


def _driver(*, javascript: bool = True, width: int = 1280, height: int = 1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='chromium-')}")
    options.add_argument(f"--window-size={width},{height}")
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture
def browser(server) -> Iterator:
    driver = _driver()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser_without_js(server) -> Iterator:
    driver = _driver(javascript=False)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def output_dir() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


def axe_violations(driver, *, impacts=("serious", "critical")) -> list[dict]:
    """Run axe-core (WCAG 2.0–2.2 A and AA rules) on the current page; return violations of these impacts."""
    driver.execute_script(AXE_JS.read_text(encoding="utf-8"))
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']}})"
        ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' '))}))))"
        ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));"
    )
    return [v for v in result if v["impact"] in impacts]


def save_full_page(driver, path: Path) -> None:
    """A screenshot of the whole page at the window's width, not only what fits in the window."""
    width = driver.get_window_size()["width"]
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, max(height + 140, 600))  # the window's frame is counted in its size
    driver.save_screenshot(str(path))
