# One task runner: CI calls `make test` through .ci/run.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo install test lint format docs bench screenshots clean

$(BIN)/mnemex: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(BIN)/mnemex

install: $(BIN)/mnemex  ## create .venv and install mnemex with its dev tools

demo: install  ## install, then build a demo brain, index it and search it
	$(BIN)/mnemex demo

test: install  ## lint, type-check, check generated docs, run every test
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy

format: install
	$(BIN)/ruff check --fix src tests bench scripts
	$(BIN)/ruff format src tests bench scripts

docs: install  ## regenerate docs/cli.md and docs/mcp-tools.md from the code
	$(BIN)/python scripts/gen_cli_docs.py > docs/cli.md
	$(BIN)/python scripts/gen_mcp_docs.py > docs/mcp-tools.md

screenshots: install  ## rebuild docs/img/ from the browser test (needs chromium, chromium-driver)
	rm -rf .screenshots && MNEMEX_SCREENSHOTS=.screenshots MNEMEX_REQUIRE_BROWSER=1 \
		$(BIN)/python -m pytest -q tests/web/test_ui_browser.py
	mkdir -p docs/img && for v in search page graph health; do \
		cp .screenshots/$$v.png docs/img/ui-$$v.png; done && rm -rf .screenshots

bench: install  ## speed benchmarks (minutes); results go in docs/benchmarks.md
	$(BIN)/python bench/bench_speed.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
