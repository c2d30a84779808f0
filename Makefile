# The two commands the README promises: `make run` and `make test`.
# Each target first builds .venv from pyproject.toml pinned by constraints.txt.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench venv migrate clean

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

# The embedded default: SQLite and one local Celery worker (filesystem broker,
# no Redis), stopped together with the web server.
run: migrate
	$(PY) -m celery -A webapp worker --pool=solo --loglevel=INFO & \
	worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver --noreload $(HOST):$(PORT)

test: $(STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check engine webapp tests bench
	$(PY) -m ruff format --check engine webapp
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) bench/placement.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
