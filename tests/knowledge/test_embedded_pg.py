import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(command: str, pgdata: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "EMBEDDED_PGDATA": str(pgdata)}
    return subprocess.run([sys.executable, "-m", "veterans_ai.embedded_pg", command], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def pgdata():
    base = Path(tempfile.mkdtemp(prefix="vbai-pg-"))
    path = base / "pgdata"
    yield path
    run("stop", path)


def postmaster_pid(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def test_start_reuse_stop_and_stale_pid(pgdata):
    first = run("start", pgdata)
    assert first.returncode == 0, first.stderr
    pid = postmaster_pid(pgdata)
    again = run("start", pgdata)
    assert again.returncode == 0 and postmaster_pid(pgdata) == pid  # reused, not restarted

    live_pid_file = (pgdata / "postmaster.pid").read_text()
    stopped = run("stop", pgdata)
    assert "stopped" in stopped.stdout and not (pgdata / "postmaster.pid").exists()
    assert "was not running" in run("stop", pgdata).stdout

    # A crash leaves postmaster.pid behind naming a dead process: the next start must cope.
    (pgdata / "postmaster.pid").write_text(live_pid_file)
    restarted = run("start", pgdata)
    assert restarted.returncode == 0, restarted.stderr
    assert postmaster_pid(pgdata) != pid
    run("stop", pgdata)

    # A garbled one (a crash mid-write) too.
    (pgdata / "postmaster.pid").write_text("12345\n\n")
    garbled = run("start", pgdata)
    assert garbled.returncode == 0, garbled.stderr


def test_unreachable_checkout_falls_back(monkeypatch, tmp_path):
    from veterans_ai import embedded_pg

    monkeypatch.delenv("EMBEDDED_PGDATA", raising=False)
    monkeypatch.setattr(embedded_pg, "DEFAULT_PGDATA", tmp_path / "checkout" / "var" / "pgdata")
    monkeypatch.setattr(embedded_pg, "_traversable_by_others", lambda path: False)
    monkeypatch.setattr(embedded_pg.os, "geteuid", lambda: 0)
    path = embedded_pg.pgdata_path()
    assert str(path).startswith(str(embedded_pg.FALLBACK_ROOT)) and path.name == "pgdata"


def test_the_fallback_stays_chosen_once_it_exists(monkeypatch, tmp_path):
    """Starting the server opens the checkout's parents to other users; later processes must not then switch
    to var/pgdata and meet an empty server."""
    from veterans_ai import embedded_pg

    monkeypatch.delenv("EMBEDDED_PGDATA", raising=False)
    monkeypatch.setattr(embedded_pg, "FALLBACK_ROOT", tmp_path)
    monkeypatch.setattr(embedded_pg, "DEFAULT_PGDATA", tmp_path / "checkout" / "var" / "pgdata")
    monkeypatch.setattr(embedded_pg.os, "geteuid", lambda: 0)
    monkeypatch.setattr(embedded_pg, "_traversable_by_others", lambda path: False)
    chosen = embedded_pg.pgdata_path()
    chosen.mkdir(parents=True)
    (chosen / "PG_VERSION").write_text("18\n")
    monkeypatch.setattr(embedded_pg, "_traversable_by_others", lambda path: True)  # parents opened meanwhile
    assert embedded_pg.pgdata_path() == chosen
