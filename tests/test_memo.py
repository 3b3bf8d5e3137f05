"""``judge.memo.ByIdentity``: what is derived from a problem is made once per object, by
identity, never by equality, and never handed to another object that happens to be equal."""

from __future__ import annotations

import numpy as np

from judge.memo import ByIdentity


def test_made_once_per_object_by_identity_not_equality():
    memo, made = ByIdentity(), []
    a, b = [1, 2], [1, 2]  # equal, not the same

    def make(tag):
        made.append(tag)
        return object()

    first = memo.get((a,), lambda: make("a"))
    assert memo.get((a,), lambda: make("again")) is first
    assert memo.get((b,), lambda: make("b")) is not first
    assert made == ["a", "b"]


def test_objects_without_a_useful_equality_are_keys():
    memo = ByIdentity()
    x = np.zeros(3)
    assert memo.get((x, "case"), lambda: 1) == 1
    assert memo.get((x, "case"), lambda: 2) == 1
    assert memo.get((np.zeros(3), "case"), lambda: 3) == 3


def test_an_entry_keeps_its_objects_so_an_id_is_never_taken_for_another():
    memo = ByIdentity()
    for i in range(100):  # each list would be freed at once, its id reused, without the entry
        assert memo.get(([i],), lambda i=i: i) == i


def test_at_most_size_entries_are_kept():
    memo, kept = ByIdentity(size=4), [object() for _ in range(10)]
    for i, obj in enumerate(kept):
        memo.get((obj,), lambda i=i: i)
    assert len(memo._found) <= 4
    assert memo.get((kept[-1],), lambda: "made again") == 9
