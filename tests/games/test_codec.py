"""The engines' state text (games/engines/codec.py): orjson, written as the standard library would."""

from __future__ import annotations

import json
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines import codec


class Play(NamedTuple):
    seat: int
    card: str


def test_tuples_and_named_tuples_are_arrays() -> None:
    data = {"plays": (Play(0, "AS"), Play(1, "JK")), "rows": ((1, 2), (3,))}
    assert codec.dumps(data) == '{"plays":[[0,"AS"],[1,"JK"]],"rows":[[1,2],[3]]}'


def test_keys_are_sorted_only_when_asked() -> None:
    assert codec.dumps({"b": 1, "a": 2}) == '{"b":1,"a":2}'
    assert codec.dumps({"b": 1, "a": 2}, sort_keys=True) == '{"a":2,"b":1}'


def test_what_is_not_a_state_is_refused() -> None:
    with pytest.raises(TypeError):
        codec.dumps({"when": object()})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


@given(json_values, st.booleans())
def test_the_text_is_what_the_standard_library_writes(value: object, sort_keys: bool) -> None:
    text = codec.dumps(value, sort_keys=sort_keys)
    assert json.loads(text) == value
    assert codec.loads(text) == value
    # Non-ASCII is written as UTF-8, not as \\u escapes; both read back the same.
    assert text == json.dumps(value, separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=False)
