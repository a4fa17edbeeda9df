# The README's two commands. Each creates .venv and installs requirements.txt when needed.
.PHONY: run test

run:
	python3 config/launch.py run

test:
	python3 config/launch.py test $(ARGS)
