# The edition's build. `make html` and `make test` work from a fresh clone: they create the
# virtual environment (.venv), install the project, convert the seeds and run Sphinx.
PYTHON    ?= python3
VENV      := .venv
BIN       := $(VENV)/bin
INSTALLED := $(VENV)/.installed
CONVERTED := source/.converted
SPHINXOPTS ?= -W --keep-going -j auto
# The edition: "whole" (both works complete: the seeds and the 文渊阁 files the manifest converts)
# or "seeds" (the five seed excerpts alone, small and quick: make html EDITION=seeds).
EDITION   ?= whole
# Seeds whose names hold characters outside the safe set (a `:`, a space…) are left out here, so that
# make can parse its rules; the converter refuses them with their name (README: Bad input).
CONV_INPUTS := $(shell find seeds -maxdepth 1 \( -name '*.txt' -o -name '*.toml' \) -not -name '*[!A-Za-z0-9._-]*' 2>/dev/null | sort) \
  $(if $(filter whole,$(EDITION)),$(shell find seeds/wenyuange -name '*.txt' -not -name '*[!A-Za-z0-9._-]*' 2>/dev/null | sort)) \
  $(wildcard conv/data/*) $(shell find conv -name '*.py' -not -path 'conv/sphinx_ext/*' 2>/dev/null)

.PHONY: help venv convert html latexpdf test bench clean distclean

help:
	@echo "make html      build the edition into build/html (index.html)"
	@echo "make latexpdf  build the PDF into build/latex/"
	@echo "make test      run the whole test suite"
	@echo "make convert   only convert seeds/ into source/ (MyST)"
	@echo "make bench     run the benchmarks in bench/"
	@echo "make clean     remove build/ and the generated MyST (never hand-written files)"
	@echo "make distclean also remove the virtual environment"

venv: $(INSTALLED)
$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip "setuptools>=77" wheel
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

convert: $(CONVERTED)
# the stamp names the edition converted (its first line): another EDITION converts again
ifneq ($(shell head -1 $(CONVERTED) 2>/dev/null | cut -d' ' -f3),$(EDITION))
.PHONY: $(CONVERTED)
endif
$(CONVERTED): $(INSTALLED) $(CONV_INPUTS)
	$(BIN)/python -m conv build --edition $(EDITION) --out source
	touch $@

# html and latexpdf convert inside sphinx-build (conv/sphinx_ext/seeds.py), by the rule of
# $(CONVERTED): one process loads the converter's tables for both.
SEEDS := -D yl_seeds=../seeds -D yl_edition=$(EDITION)

html: $(INSTALLED)
	$(BIN)/sphinx-build $(SPHINXOPTS) $(SEEDS) -b html source build/html

# A failed run (a refused character, a LaTeX error) leaves no PDF that looks finished.
latexpdf: $(INSTALLED)
	@$(BIN)/sphinx-build -M latexpdf source build $(SPHINXOPTS) $(SEEDS) || { \
	  rm -f build/latex/*.pdf; echo "make latexpdf failed: no PDF is left in build/latex/" >&2; exit 1; }

# The suite in TEST_WORKERS processes (pytest-xdist; a test file stays in one process, and the
# builds several files need are made once per run: tests/once.py). TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
test: $(CONVERTED)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

bench: $(CONVERTED)
	$(BIN)/python -m bench

clean:
	@if [ -x $(BIN)/python ]; then $(BIN)/python -m conv clean --out source; fi
	rm -rf build $(CONVERTED)

distclean: clean
	rm -rf $(VENV)
