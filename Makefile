# The README's two commands. Each creates .venv and installs what it needs when needed: run
# requirements.txt, test requirements-test.txt too.
.PHONY: run test test-fast

run:
	python3 config/launch.py run

test:
	python3 config/launch.py test $(ARGS)

# The quick loop: the same checks and every test but the browser and slow (whole-stack) ones.
test-fast:
	python3 config/launch.py test-fast $(ARGS)
