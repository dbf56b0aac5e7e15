# Every target sets up what it needs (.venv, node_modules) and is safe to re-run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1:8000
# Material 9.7+ prints a banner about MkDocs 2 on every build; it is not about this project.
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build build-zensical check test test-fast lint bench clean

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

setup: $(VENV)/.installed node_modules/.installed

serve: setup            ## serve the site with live reload on http://$(HOST)/
	$(BIN)/mkdocs serve --dev-addr $(HOST)

build: setup            ## build the static site into site/
	$(BIN)/mkdocs build --strict

$(VENV)/.zensical: pyproject.toml | $(VENV)/.installed
	$(BIN)/python -m pip install -q -e '.[zensical]'
	@touch $@

# The same site built by Zensical: `rankcards site-sources` writes what the MkDocs plugin adds
# at build time into a plain project (build/zensical), and Zensical builds it.
build-zensical: setup $(VENV)/.zensical   ## build the site with Zensical into site-zensical/
	$(BIN)/rankcards site-sources build/zensical
	cd build/zensical && $(abspath $(BIN))/zensical build --clean --strict
	rm -rf site-zensical && mv build/zensical/site site-zensical

check: setup            ## validate the bundled cards
	$(BIN)/rankcards check docs/cards

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test: setup lint        ## the whole suite: lint, types, unit, differential, Pyodide, browser
	$(BIN)/python -m pytest -n 2 --dist loadfile

test-fast: setup        ## everything but the browser and Pyodide tests
	$(BIN)/python -m pytest -m "not browser and not pyodide"

bench: setup
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/run_all.py

clean:
	rm -rf site site-zensical dist build .pytest_cache .mypy_cache .ruff_cache
