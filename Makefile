# Volcano Arena. `make demo` and `make test` each set up what they need (virtualenv, install).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed

.PHONY: install demo test test-fast lint bench clean browser node

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev,bench]"
	touch $(BENCH_STAMP)

demo: install  ## the platform on its embedded default: reference bots, a tournament per game
	$(VENV)/bin/arena demo

test: install browser node  ## the whole suite, integration and browser tests included (they start redis-server if needed)
	$(PY) -m pytest -q

test-fast: install  ## everything that needs no socket, process or Redis
	$(PY) -m pytest -q -m "not integration"

browser:  ## headless Chromium and its driver (Debian packages) for the browser tests, when missing and when root
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
		else echo "chromium/chromium-driver missing and not root: run 'sudo make browser' for the browser tests"; fi; }

node:  ## Node (Debian's nodejs) for the starter JavaScript bot's tests, when missing and when root
	@command -v node >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; \
		else echo "node missing and not root: run 'sudo make node' for the JavaScript bot's tests"; fi; }

lint: install  ## ruff (its checks and its formatting), then mypy --strict on referee/, platform/arena, bots/ and the example game
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict referee platform/arena bots examples/connect_four/connect_four

bench: $(BENCH_STAMP)  ## every benchmark in bench/, one after the other (Catanatron installed for the Catan ratio)
	@for script in bench/bench_*.py bench/*_bots.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .mypy_cache .hypothesis
