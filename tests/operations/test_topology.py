"""`make prod-local` runs the services docker-compose.yml declares, with the same commands and replica counts
(no Docker engine here to run the compose file itself)."""

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from operations.prod_local import PREPARE, SERVICES

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def compose_services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def test_compose_and_prod_local_run_the_same_services_with_the_same_commands():
    compose = compose_services()
    assert set(compose) == {*SERVICES, "db", "redis"}
    for name, service in SERVICES.items():
        command = compose[name]["command"]
        steps = shlex.split(command)[2].split(" && ") if command.startswith("sh -c") else [command]
        assert shlex.split(steps[-1]) == service["command"], name
        assert compose[name].get("deploy", {}).get("replicas", 1) == service["replicas"], name
    web_steps = [shlex.split(step) for step in shlex.split(compose["web"]["command"])[2].split(" && ")[:-1]]
    assert web_steps == [["python", *step] for step in PREPARE]


def test_the_stores_are_postgres_with_pgvector_and_redis():
    compose = compose_services()
    assert compose["db"]["image"].startswith("pgvector/pgvector:")
    assert compose["redis"]["image"].startswith("redis:")
    app = compose["web"]
    assert app["environment"]["DATABASE_URL"].startswith("postgres://")
    assert app["environment"]["REDIS_URL"].startswith("redis://")
    assert all(compose[name]["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?") for name in SERVICES)


def compose_cli() -> list[str] | None:
    """`docker compose` (the v2 plugin), else Debian's `docker-compose`, else None."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def test_docker_compose_config_validates_the_file_when_a_compose_cli_is_installed():
    cli = compose_cli()
    if cli is None:
        pytest.skip("no docker compose CLI here: the service and command comparison above stands in for it")
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "SECRET_KEY": "compose-config-check"}
    done = subprocess.run([*cli, "-f", str(COMPOSE), "config", "--services"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == {*SERVICES, "db", "redis"}
    # The secret is required: without it the file does not resolve.
    missing = subprocess.run([*cli, "-f", str(COMPOSE), "config"], capture_output=True, text=True,
                             env={"PATH": env["PATH"]}, timeout=120)
    assert missing.returncode != 0 and "SECRET_KEY" in missing.stderr
