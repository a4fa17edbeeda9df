# The README's two commands. Each creates .venv and installs what it needs when needed: run
# requirements.txt, test requirements-test.txt too.
.PHONY: run test

run:
	python3 config/launch.py run

test:
	python3 config/launch.py test $(ARGS)
