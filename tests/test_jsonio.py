"""engine.jsonio: the depth limit counts brackets outside strings only, and reads any text in one pass."""
import json
import signal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.jsonio import MAX_BYTES, MAX_DEPTH, JSONInputError, loads

# Strings full of what a bracket counter could trip on: brackets, quotes, backslashes, newlines.
TRICKY = st.text(st.sampled_from('[]{}"\\\n ab'), max_size=8)
VALUES = st.recursive(st.none() | st.integers(-9, 9) | TRICKY,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3),
                      max_leaves=20)


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@given(VALUES, st.integers(0, 40))
def test_nesting_is_counted_outside_strings_only(value, wrap):
    for _ in range(wrap):
        value = [value]
    text = json.dumps(value, ensure_ascii=False)
    if depth(value) <= MAX_DEPTH:
        assert loads(text, "x") == value
    else:
        with pytest.raises(JSONInputError, match=f"x: not JSON: nested more than {MAX_DEPTH} deep"):
            loads(text, "x")


@pytest.mark.parametrize("text", [
    '["' + '\\"' * (MAX_BYTES // 2 - 2),   # one string never closed, full of escaped quotes
    '"\\' * (MAX_BYTES // 2),               # a quote and a backslash, over and over
    '"' * MAX_BYTES,
])
def test_the_largest_unclosed_strings_are_refused_without_rescanning(text):
    def stop(signum, frame):
        raise TimeoutError("loads read the text again and again")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)  # a bound on a hang, not a timing: one pass takes well under a second
    try:
        with pytest.raises(JSONInputError, match="x: not JSON"):
            loads(text, "x")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
