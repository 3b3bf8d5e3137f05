"""batched_attention: the spec loads with its rules, its cases keep the promises of the
statement (a visible key in every row, entries in [-4, 4]) and cover the mistakes it warns
about (d unlike e, t unlike s, masks that differ by example and by row, rows with one key,
scores large enough for a small fill to show, the largest shapes), and a few known
submissions get their verdict with the reason of the rule that refuses them (examples only)."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.problem import spec


@pytest.fixture(scope="module")
def attention():
    return spec.load(ROOT / "problems" / "batched_attention.yaml")


def test_rules_and_dims(attention):
    assert 20 <= len(attention.hidden) <= 40
    assert [r["id"] for r in attention.rules] == ["no_unrolling", "max_intermediate_size",
                                                  "no_callbacks"]
    assert attention.symbolic_dims == ("b", "e", "s", "t")
    assert [(p.name, p.wrt) for p in attention.probes] == [("vjp", ("q", "k", "v"))]


def test_cases_keep_the_statement(attention):
    seen = {"d_not_e": 0, "t_not_s": 0, "masks_differ_by_example": 0, "one_key_row": 0,
            "all_kept": 0, "large_scores": 0, "b8_t16ish": 0, "b1": 0}
    for case in attention.cases:
        q, k, v, mask = (case.inputs[n] for n in ("q", "k", "v", "mask"))
        b, t, d = q.shape
        s, e = k.shape[1], v.shape[2]
        assert k.shape == (b, s, d) and v.shape == (b, s, e) and mask.shape == (b, t, s)
        assert mask.dtype == np.bool_ and mask.any(axis=-1).all()   # no row without a key
        assert max(np.abs(q).max(), np.abs(k).max(), np.abs(v).max()) <= 4
        assert case.expected["value"].shape == (b, t, e)
        for name, x in (("q", q), ("k", k), ("v", v)):
            assert case.expected[f"grad w.r.t. {name}"].shape == x.shape
        scores = np.einsum("btd,bsd->bts", q.astype(np.float64), k) / np.sqrt(d)
        seen["d_not_e"] += d != e and d > 1
        seen["t_not_s"] += t != s
        seen["masks_differ_by_example"] += b > 1 and bool((mask != mask[:1]).any())
        seen["one_key_row"] += bool((mask.sum(-1) == 1).any()) and s > 1
        seen["all_kept"] += bool(mask.all()) and s > 1
        seen["large_scores"] += bool(np.abs(scores).max() > 40)
        seen["b8_t16ish"] += b == 8 and min(t, s, d, e) >= 12
        seen["b1"] += b == 1
    assert all(seen.values()), seen
    assert len(attention.examples) == 2


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "vmap_attend", "AC", "ok", ""),
    ("accepted", "custom_vjp_backward", "AC", "ok", ""),
    ("rejected", "python_loop_over_batch", "RJ", "dim_read_as_number", "b"),
    ("rejected", "fixed_loop_over_eight", "RJ", "unrolled_loop", "more than the 200"),
    ("rejected", "broadcast_scores", "RJ", "intermediate_too_large", "(b, t, s, 4)"),
    ("rejected", "pure_callback", "RJ", "callback_used", "pure_callback"),
    ("wrong_answer", "mask_as_zero_score", "WA", "wrong_value", ""),
    ("wrong_answer", "stop_gradient_keys", "WA", "wrong_vjp", "grad w.r.t. k"),
])
def test_known_submissions(attention, folder, name, verdict, reason, words):
    result = grade_known(attention, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message
