# Veterans Benefits AI — `make run` serves the app, `make test` runs every suite. Nothing else is needed.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: install static run test test-unit test-integration test-browser stop bench load evaluate lint clean-db prod-local prod-stop
STATIC_MANIFEST := var/staticfiles/staticfiles.json

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

# Static files under hashed names, compressed, as the app serves them with DEBUG off (rebuilt when they change).
$(STATIC_MANIFEST): $(VENV)/.installed $(shell find static -type f 2>/dev/null)
	$(PY) manage.py collectstatic --no-input --verbosity 0
	@touch $@

static: $(STATIC_MANIFEST)

run: install
	$(PY) manage.py migrate --no-input
	$(PY) manage.py ingest --bundled --if-empty
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver $(HOST):$(PORT)

test: install $(STATIC_MANIFEST)
	scripts/ensure_redis.sh
	scripts/ensure_chromium.sh
	$(PY) -m pytest

test-unit: install $(STATIC_MANIFEST)
	$(PY) -m pytest -m "not integration and not browser"

test-integration: install
	scripts/ensure_redis.sh
	$(PY) -m pytest -m integration

test-browser: install $(STATIC_MANIFEST)
	scripts/ensure_chromium.sh
	$(PY) -m pytest -m browser

stop: install
	$(PY) -m veterans_ai.embedded_pg stop

# docker-compose.yml's topology on this machine: gunicorn (2 workers), 2 Celery workers, beat, Redis and
# PostgreSQL, production settings, on HOST:PORT (127.0.0.1:8000). `make prod-stop` ends what it started.
prod-local: install $(STATIC_MANIFEST)
	$(PY) -m operations.prod_local start

prod-stop: install
	$(PY) -m operations.prod_local stop

bench: install $(STATIC_MANIFEST)
	$(PY) manage.py migrate --no-input
	$(PY) bench/bench_embeddings.py
	$(PY) manage.py bench_retrieval

# Load on the served app (gunicorn, 2 workers, production settings, loopback only); prints the figures.
load: install $(STATIC_MANIFEST)
	$(PY) bench/load.py

# The golden sets' report per topic (tables; full JSON in var/evaluate/), in a database of its own holding the
# bundled corpus; fails when a guarded metric falls more than 3 points below its baseline. After a change that
# moves the figures on purpose, `make evaluate WRITE_BASELINES=1` rewrites tests/golden/*baseline.json.
EVALUATE_SETS := golden:baseline holdout:holdout_baseline
evaluate: install
	@mkdir -p var/evaluate
	@status=0; for pair in $(EVALUATE_SETS); do \
		set=$${pair%%:*}; baseline=tests/golden/$${pair##*:}.json; \
		if [ -n "$(WRITE_BASELINES)" ]; then check="--write-baseline $$baseline"; else check="--baseline $$baseline"; fi; \
		$(PY) manage.py evaluate --own-database --table --golden tests/golden/$$set.jsonl \
			--json-out var/evaluate/$$set.json $$check || status=1; \
	done; exit $$status

lint: install
	$(PY) -m ruff check .
