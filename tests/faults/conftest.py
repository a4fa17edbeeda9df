"""Each fault test's account of what it did and checked goes to the terminal, pass or fail."""

from __future__ import annotations

import pytest

from tests.faults import stack


@pytest.fixture(autouse=True)
def _tell_what_was_done(request):
    stack.SAID.clear()
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():  # else the lines would be captured with the test's output
            reporter.write_line("")
            for line in stack.SAID:
                reporter.write_line(line)
