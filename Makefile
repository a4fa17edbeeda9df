# The README's two commands. Each creates .venv and installs what it needs when needed: run
# requirements.txt, test requirements-test.txt too.
.PHONY: run test test-fast

# make run PROXY=1: the same stack behind the production nginx configuration (deploy/nginx/).
run:
	python3 config/launch.py run $(if $(PROXY),--proxy --daphne 2) $(ARGS)

test:
	python3 config/launch.py test $(ARGS)

# The quick loop: the same checks and every test but the browser and slow (whole-stack) ones.
test-fast:
	python3 config/launch.py test-fast $(ARGS)
