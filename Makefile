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

run: migrate
	$(PY) manage.py runserver $(HOST):$(PORT)

test: $(STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check engine tests bench
	$(PY) -m ruff format --check engine
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) bench/placement.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
