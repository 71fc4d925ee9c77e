# The README's two commands: `make run` (the main job) and `make test`.
PY ?= python3
# Where `make run` serves the table to browsers: this machine only (make run WEB=PORT for another port).
WEB ?= 127.0.0.1:8080
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench pi-check install-service

$(BIN)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[table,web,test,report]'
	touch $@

# Ctrl-C ends the table (status 130): that is how it is stopped, no error of make's.
run: $(BIN)/.installed
	$(BIN)/roseking play --sim --web $(WEB) || [ $$? -eq 130 ]

test: $(BIN)/.installed
	$(BIN)/python -m pytest -n auto
	$(BIN)/mypy
	$(BIN)/ruff check

# The table as a systemd service at boot (docs/SERVICE.md): make install-service CONFIG=/etc/roseking.toml
# [ARGS="--data-dir DIR --user NAME"], as root (sudo) to write /etc/systemd/system/roseking.service.
install-service: $(BIN)/.installed
	$(BIN)/roseking install-service --config "$(CONFIG)" $(ARGS)

bench: $(BIN)/.installed
	$(BIN)/roseking bench

# Not part of CI: installs '.[pi]' in an emulated arm64 bookworm root and imports it as a Pi 4 and a Pi 5.
pi-check:
	scripts/pi-check
