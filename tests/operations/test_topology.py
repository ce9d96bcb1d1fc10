"""`make prod-local` runs the services docker-compose.yml declares, with the same commands and replica counts
(no Docker engine here to run the compose file itself)."""

import shlex
from pathlib import Path

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
