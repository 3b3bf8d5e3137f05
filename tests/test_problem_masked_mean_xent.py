"""masked_mean_xent: the spec loads, its cases cover what the statement warns about (padding
of every kind, logits past exp's range in float32, huge padded logits, lengths that differ),
and a few known submissions get their verdict with the reason of the rule that refuses them
(examples only)."""

import numpy as np
import pytest

from tests.helpers import ROOT, grade_known
from judge.grade import grading
from judge.problem import spec


@pytest.fixture(scope="module")
def xent():
    return spec.load(ROOT / "problems" / "masked_mean_xent.yaml")


def test_rules_and_dims(xent):
    assert 20 <= len(xent.hidden) <= 40
    assert [r["id"] for r in xent.rules] == ["no_unrolling", "forbidden_primitives",
                                              "max_intermediate_size", "no_callbacks"]
    assert xent.symbolic_dims == ("b", "t") and not xent.probe_shapes


def test_cases_cover_the_statement(xent):
    seen = {"ragged": 0, "no_padding": 0, "overflow": 0, "underflow": 0, "far_below": 0,
            "huge_padding": 0, "b1": 0, "b1_padded": 0, "t1": 0, "length_after_end": 0}
    for case in xent.cases:
        z, y, n = (case.inputs[k] for k in ("logits", "labels", "lengths"))
        b, t, c = z.shape
        assert y.shape == (b, t) and n.shape == (b,) and y.dtype == np.int32
        assert ((0 <= y) & (y < c)).all() and ((1 <= n) & (n <= t)).all()
        valid = np.arange(t)[None, :] < n[:, None]
        grad = case.expected["grad w.r.t. logits"]
        assert case.expected["value"].shape == () and grad.shape == z.shape
        assert np.isfinite(grad).all() and (grad[~valid] == 0).all()
        rows = z[valid]
        seen["ragged"] += len(set(n.tolist())) > 1 and bool((~valid).any())
        seen["no_padding"] += bool(valid.all())
        seen["overflow"] += bool((rows.max(axis=-1) > 88.8).any())
        seen["underflow"] += bool((rows.max(axis=-1) < -87.4).any())
        target = np.take_along_axis(rows, y[valid][:, None], axis=-1)[:, 0]
        seen["far_below"] += bool((rows.max(axis=-1) - target > 104).any())
        seen["huge_padding"] += bool((np.abs(z[~valid]) >= 1000).any())
        seen["b1"] += b == 1
        # a program for one sequence that forgets the mask is graded on a case that tells
        seen["b1_padded"] += b == 1 and bool((n < t).any())
        seen["t1"] += t == 1
        seen["length_after_end"] += bool((n < t).any())
        assert np.abs(rows).max(initial=0) <= 200          # the statement's promise
    assert all(seen.values()), seen
    # every example has padding and lengths that differ, or logits past exp's range
    assert len(xent.examples) == 3


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "one_hot_float_mask", "AC", "ok", ""),
    ("accepted", "vmap_sequences", "AC", "ok", ""),
    ("rejected", "python_loop_over_batch", "RJ", "dim_read_as_number", "as a number at line 7"),
    ("rejected", "lax_map_over_batch", "RJ", "forbidden_primitive", "scan"),
    ("rejected", "pad_to_max_chunk_loop", "RJ", "intermediate_too_large", "(8, t, 3)"),
    ("rejected", "row_sums_loop", "RJ", "unrolled_loop", "more than the 240"),
    ("wrong_answer", "mean_of_sequence_means", "WA", "wrong_value", ""),
    ("wrong_answer", "stop_gradient_normalizer", "WA", "wrong_vjp", ""),
])
def test_known_submissions(xent, folder, name, verdict, reason, words):
    result = grade_known(xent, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message


#: A loop over a fixed 8 rows (b <= 8) after the batched work: each step sums one row's losses
#: out of the batch with a mask. It does no per-row work a batched program would not, stays
#: under the equation bound, and builds nothing large; but each of its steps picks one row of
#: b at an index written in the program (``rows == i``), eight places in all
#: (``judge.worker.picks``, ``judge.rules.fixed_loops``).
FIXED_ROW_LOOP = '''
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(log_probs, labels[..., None], axis=-1)[..., 0]
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    row_sums = jnp.sum(jnp.where(valid, -picked, 0.0), axis=1)
    rows = jnp.arange(logits.shape[0])
    total = 0.0
    for i in range(8):
        total = total + jnp.sum(jnp.where(rows == i, row_sums, 0.0))
    return total / jnp.sum(valid).astype(logits.dtype)
'''


def test_a_fixed_loop_that_selects_rows_is_refused(xent, tmp_path):
    path = tmp_path / "fixed_row_loop.py"
    path.write_text(FIXED_ROW_LOOP)
    result = grading.grade(xent, path, examples_only=True, hints=False, source_gate=True)
    assert (result.verdict.value, result.reason) == ("RJ", "unrolled_loop"), result.message
    assert "takes 8 different rows or chunks of b at indices written in it" in result.message
    assert "most at line 14)" in result.message


def test_a_fixed_loop_that_selects_rows_at_a_zero_read_from_the_data_is_refused(xent, tmp_path):
    """The same loop at ``rows == i + zero``, ``zero`` read from the lengths: no index is a
    number the program fixes, but the eight are one unknown plus 0 .. 7 (``judge.worker.shifted``)."""
    path = tmp_path / "fixed_row_loop_at_zero.py"
    path.write_text(FIXED_ROW_LOOP.replace("    rows = jnp.arange(logits.shape[0])\n",
                                           "    rows = jnp.arange(logits.shape[0])\n"
                                           "    zero = jnp.sum(lengths < 0).astype(jnp.int32)\n")
                    .replace("rows == i,", "rows == i + zero,"))
    assert "rows == i + zero" in path.read_text()
    result = grading.grade(xent, path, examples_only=True, hints=False, source_gate=True)
    assert (result.verdict.value, result.reason) == ("RJ", "unrolled_loop"), result.message
    assert "takes 8 different rows or chunks of b" in result.message
