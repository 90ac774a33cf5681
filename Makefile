# WarpDrill: the two commands of the README.
#   make dev   install everything and run the site with a worker (SQLite, embedded broker, CPU emulator)
#   make test  install everything and run the whole test suite
.PHONY: dev test setup

setup:
	bash platform/bootstrap.sh

# make dev leaves the emulator runtime building in the background (the worker waits for it) and
# creates the demo users beside the bank's import; setup and test wait for everything.
dev:
	@WARPDRILL_RUNTIME_IN_BACKGROUND=1 WARPDRILL_SEED_DEMO=1 bash platform/bootstrap.sh
	@echo "  Starting the site, a grading worker and the scheduler (the address and logins follow)..."
	@WARPDRILL_PORT=$${PORT:-8000} .venv/bin/honcho start -f Procfile.dev

test:
	WARPDRILL_SKIP_DB_SETUP=1 bash platform/bootstrap.sh
	.venv/bin/python -m pytest $(PYTEST_ARGS)
