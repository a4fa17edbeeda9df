"""Each fault test's account of what it did and checked goes to the terminal, pass or fail."""

from __future__ import annotations

import pytest

from tests.faults import stack


@pytest.fixture(autouse=True)
def _tell_what_was_done(request):
    stack.SAID.clear()
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("")
        for line in stack.SAID:
            reporter.write_line(line)
