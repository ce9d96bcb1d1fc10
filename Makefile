# Veterans Benefits AI — `make run` serves the app, `make test` runs every suite. Nothing else is needed.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: install run test test-unit test-integration stop bench evaluate lint clean-db

$(VENV)/.installed: requirements.txt requirements-nodeps.txt
	@set -e; if [ ! -x $(PY) ]; then \
		python=$$(scripts/find_python.sh); \
		echo "Creating $(VENV) with $$python"; \
		"$$python" -m venv $(VENV); \
	fi
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-nodeps.txt
	@touch $@

install: $(VENV)/.installed

run: install
	$(PY) manage.py migrate --no-input
	$(PY) manage.py ingest --bundled --if-empty
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver $(HOST):$(PORT)

test: install
	scripts/ensure_redis.sh
	$(PY) -m pytest

test-unit: install
	$(PY) -m pytest -m "not integration"

test-integration: install
	scripts/ensure_redis.sh
	$(PY) -m pytest -m integration

stop: install
	$(PY) -m veterans_ai.embedded_pg stop

bench: install
	$(PY) manage.py migrate --no-input
	$(PY) bench/bench_embeddings.py
	$(PY) manage.py bench_retrieval

evaluate: install
	$(PY) manage.py evaluate --golden tests/golden/golden.jsonl --baseline tests/golden/baseline.json
	$(PY) manage.py evaluate --golden tests/golden/holdout.jsonl --baseline tests/golden/holdout_baseline.json

lint: install
	$(PY) -m ruff check .
