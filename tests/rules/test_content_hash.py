"""stored_content_hash (rules/reading/data_files.py) is content_hash, the same hex digest, sooner: the database keeps
a book's content hash, and a re-import of the same data must find it equal (else it is refused as "other
content"). Floats Python writes with an exponent, NaN and infinities go to content_hash itself."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from armylists.rules.reading.data_files import content_hash, stored_content_hash

# Every code point but lone surrogates (no XML text or JSON column holds one), control characters included.
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [1e-3, 9.999999999999998e-4, 1e-4, 9.99e-5, 1e15, 999999999999999.9, 1e16, -1e16, 5e-324, 0.0, -0.0, 12.5, 0.04])
SCALARS = st.none() | st.booleans() | st.integers() | st.integers(min_value=-2**70, max_value=2**70) | FLOATS | TEXT
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                      max_leaves=25)


@settings(max_examples=600, deadline=None)
@given(VALUES)
def test_the_same_digest_as_content_hash_for_any_json_value(value):
    assert stored_content_hash(value) == content_hash(value)


def test_the_same_digest_where_python_writes_floats_otherwise_than_msgspec():
    # json.dumps: 1e+16, 1e-05, NaN, Infinity; msgspec: 1e16, 0.00001, null, null
    for value in (1e16, 1e-5, float("nan"), float("inf"), -float("inf"), 1.7976931348623157e308, 5e-324):
        data = {"limits": [{"value": value, "name": "Knights"}]}
        assert stored_content_hash(data) == content_hash(data)
    assert json.dumps({"v": 1e16}, separators=(",", ":")) == '{"v":1e+16}'


def test_the_same_digest_for_keys_python_sorts_and_escapes():
    data = {"b": 1, "B": [1, 2], "a": {"\x00\x1f\x7f\u2028": "line\nbreak\t\"quoted\" \\ é 😀"}, "é": 0.1,
            "\uffff": 2.857142857142857, "😀": True, "": None}
    assert stored_content_hash(data) == content_hash(data)


def test_what_json_refuses_or_writes_otherwise_is_left_to_json():
    # A key that is not a string: json.dumps writes it as one, msgspec (sorted) refuses; a cycle: json refuses.
    assert stored_content_hash({1: "a", 2: 2.5}) == content_hash({1: "a", 2: 2.5})
    looped: list = []
    looped.append(looped)
    for fn in (stored_content_hash, content_hash):
        try:
            fn(looped)
        except (ValueError, RecursionError):
            pass
        else:
            raise AssertionError(f"{fn.__name__} hashed a list that holds itself")


def test_data_of_strings_ints_and_plain_floats_is_hashed_without_json(monkeypatch):
    import armylists.rules.reading.data_files as data_files

    data = {"entries": [{"id": "knights", "cost": 12, "tags": ["bs-a1e3"]}], "limits": [{"value": 12.5}, {"p": 0.04}]}
    expected = content_hash(data)
    monkeypatch.setattr(data_files, "content_hash", lambda d: "json")
    assert stored_content_hash(data) == expected
    assert stored_content_hash({"value": 1e16}) == "json"
