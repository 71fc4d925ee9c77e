# The README's two commands: `make run` (the main job) and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench pi-check

$(BIN)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[table,web,test,report]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/roseking play --sim

test: $(BIN)/.installed
	$(BIN)/python -m pytest -n auto
	$(BIN)/mypy
	$(BIN)/ruff check

bench: $(BIN)/.installed
	$(BIN)/roseking bench

# Not part of CI: installs '.[pi]' in an emulated arm64 bookworm root and imports it as a Pi 4 and a Pi 5.
pi-check:
	scripts/pi-check
