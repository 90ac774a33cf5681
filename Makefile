# WarpDrill: the two commands of the README.
#   make dev   install everything and run the site with a worker (SQLite, embedded broker, CPU emulator)
#   make test  install everything and run the whole test suite
.PHONY: dev test setup

setup:
	bash platform/bootstrap.sh

dev:
	@WARPDRILL_RUNTIME_IN_BACKGROUND=1 bash platform/bootstrap.sh
	@.venv/bin/python manage.py seed_demo --quiet
	@echo "  Starting the site, a grading worker and the scheduler (the address and logins follow)..."
	@WARPDRILL_PORT=$${PORT:-8000} .venv/bin/honcho start -f Procfile.dev

test:
	WARPDRILL_SKIP_DB_SETUP=1 bash platform/bootstrap.sh
	.venv/bin/python -m pytest $(PYTEST_ARGS)
