"""Each fault test's site of its own (``stack``), and its account of what it did and checked, which
goes to the terminal, pass or fail."""

from __future__ import annotations

import shutil

import pytest

from tests.faults import stack as stacks
from tests.faults.stack import Stack, migrated_template, scratch


@pytest.fixture(scope="session")
def template():
    directory = scratch("template")
    yield migrated_template(directory)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def stack(template, request):
    """A whole site of its own; ``parametrize("stack", [{VARIABLE: value}], indirect=True)`` sets its
    environment."""
    env = getattr(request, "param", {})
    made = Stack(scratch("site"), template, request.node.originalname.removeprefix("test_")[:60], **env)
    yield made
    made.close()


@pytest.fixture(autouse=True)
def _tell_what_was_done(request):
    stacks.SAID.clear()
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():  # else the lines would be captured with the test's output
            reporter.write_line("")
            for line in stacks.SAID:
                reporter.write_line(line)
