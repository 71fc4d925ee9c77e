# The README's two commands: `make run` (the main job) and `make test`.
PY ?= python3
# Where `make run` serves the table to browsers: this machine only (make run WEB=PORT for another port).
WEB ?= 127.0.0.1:8080
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test pytest mypy ruff test-compiled bench pi-check install-service

# uv resolves and installs in seconds what takes pip half a minute. The venv starts without pip (its bootstrap takes
# longer than all the rest): this Python's pip puts uv in, or where it has none (or one older than 22.3) the venv's
# own, bootstrapped; uv then installs pip too, for the manual's `.venv/bin/pip`. The bytecode is compiled at once
# rather than in every process that first imports a module, but not that of the libraries' own tests, of the type
# checker (compiled by mypyc) and of pip: over a quarter of the files, which nothing here imports. A file that does
# not compile (a library's template, say) is left to its import rather than failing the install.
$(BIN)/.installed: pyproject.toml
	$(PY) -m venv --without-pip $(VENV)
	$(PY) -m pip --python $(BIN)/python install --quiet uv 2>/dev/null \
		|| { $(BIN)/python -m ensurepip --default-pip >/dev/null && $(BIN)/pip install --quiet uv; }
	$(BIN)/uv pip install --quiet --python $(BIN)/python pip -e '.[table,web,test,report]'
	$(BIN)/python -m compileall -q -j0 -x 'site-packages/(.+/)?tests?/|site-packages/(mypy|mypyc|pip)/' $(VENV)/lib >/dev/null || true
	touch $@

# The engine compiled by mypyc (ROSEKING_COMPILE=1), installed in a venv of its own; the engine's tests
# run there, from tests/ so that they import the install, not the tree (ROSEKING_EXPECT_COMPILED checks it).
COMPILED := .venv-compiled
ENGINE_TESTS := test_engine_*.py test_players.py test_simulate.py test_lean.py test_compiled.py

$(COMPILED)/bin/.installed: pyproject.toml setup.py build_backend/roseking_build.py $(wildcard engine/*.py engine/*/*.py)
	rm -rf $(COMPILED)
	$(PY) -m venv $(COMPILED)
	$(COMPILED)/bin/pip install --quiet --upgrade pip
	ROSEKING_COMPILE=1 $(COMPILED)/bin/pip install --quiet '.[test]'
	touch $@

test-compiled: $(COMPILED)/bin/.installed
	cd tests && ROSEKING_EXPECT_COMPILED=1 ../$(COMPILED)/bin/python -m pytest -n auto -p no:cacheprovider $(ENGINE_TESTS)

# Ctrl-C ends the table (status 130): that is how it is stopped, no error of make's.
run: $(BIN)/.installed
	$(BIN)/roseking play --sim --web $(WEB) || [ $$? -eq 130 ]

# A worker a core and one more, for the time the tests wait on a table, a browser or a clock rather than compute
# (two a core cost a third more CPU in all, the workers crowding each other, and took longer: docs/PERFORMANCE.md).
# The processes the tests start keep their compiled bytecode (an environment may turn that off) rather than compile
# each import anew.
JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
# The type checker and the linter run beside the suite, on the time its workers spend waiting.
test: $(BIN)/.installed
	$(MAKE) --no-print-directory -j3 pytest mypy ruff

pytest: $(BIN)/.installed
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n $(JOBS)

mypy: $(BIN)/.installed
	$(BIN)/mypy

ruff: $(BIN)/.installed
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
