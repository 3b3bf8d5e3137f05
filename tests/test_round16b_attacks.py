"""A fifth held-out-style round on the eleven older problems (``tests/adversarial/round16b/``),
written from the statements alone: adamw_step, clip_by_global_norm, ema_scan, fake_quant_ste,
grad_reversal, hvp_tanh, masked_mean_xent, pairwise_sq_dists, per_example_clip, sign_ste and
warmup_cosine.
Honest code in styles the earlier rounds did not hold: classes with ``__call__`` whose settings
are plain attributes, ``typing.Protocol``s, ``functools.partial(jax.jit, static_argnames=...)``
decorators, ``jax.lax.cond`` on a Python bool with lambdas, ``jax.numpy`` imported as ``np``,
long docstrings with examples, ``jnp.asarray(..., dtype=...)`` on every value, a Python call
counter kept for a log line. Around the custom_vjp rules: residuals stored in a dict tree or a
tuple tree, a backward rule that reads ``x`` from its closure or the ratio from a dict cell its
forward rule wrote, a quantizer that rounds by the
float32 trick ``(r + 1.5 * 2**23) - 1.5 * 2**23``, and the layer applied to ``x`` moved in ways
the dataflow must read as moves: tiled by ``jnp.tile`` or ``jnp.resize`` and cut back (refused
until ``tile``, the primitive both bind, counted as a move), viewed through its bits and back
(refused until a ``bitcast_convert_type`` counted as one), each entry repeated, passed through
``reduce_precision`` at full precision, rolled and rolled back, reversed twice by ``flip`` and
``lax.rev``, permuted by ``take`` in ``clip`` mode or a hand-written ``gather`` and put back, reordered by a
``sort`` along permutation keys (refused until each output of a sort of several operands was
read as its own operand moved), windowed by ``dynamic_slice`` at a data index over the whole
width (refused until such a window ignored its clamped start), flattened by ``lax.collapse``,
times a one cast from an int, chosen by ``jnp.where`` on a Python ``True`` or ``lax.select_n`` on
a predicate of constants (refused until a select whose predicate is one value known from
constants was read as the case it picks), or chosen entry by entry between ``x`` and ``x``
reversed. Beside the custom_vjp problems: ``rsqrt`` of a guarded sum of squares,
``minimum(1, c / n)`` behind a ``where``, a tiny epsilon inside the root; ``unroll=``, a reverse
scan over reversed rows, a ``while_loop`` with a counter; forward over reverse at a tangent
scaled by a power of two, ``linearize``; ``jnp.power``, ``**`` and ``exp(t log b)`` for the
bias corrections; a phase index for ``select_n``, clipped fractions, int comparisons.
Cheats and near misses beside them: a rule chosen by a Python call counter (honest on the first
trace, a formula on the later ones, which the judge, tracing once per static signature, grades
too), an identity custom_vjp function written as ``reduce_precision`` at full precision or as a
bit-cast round trip with the rounding done outside it by the float32 trick (the bit-cast one,
pulled back alone, accepted until a bit-cast round trip gave its input back as a move), the
layer pulled back at ``where(False, x, 0)``, at a jitted ``where`` whose flag is ``True`` in
one call and ``False`` in another, or at ``x`` reduced to one bit of precision (accepted until
``reduce_precision`` counted as a move only at its operand's own precision), at zeros sorted by
``x`` as keys, at zeros written over ``x`` by a whole-width ``dynamic_update_slice``, at a
hand-written ``gather`` filling out of bounds, a central
difference of gradients, ``linalg.norm`` squared (NaN at a zero row) and of the full difference,
``minimum(1, c / sqrt(s))`` unguarded, ``log(softmax)``, a running sum scaled by
``decay**-k``, weights and bias clipped apart, a warmup counted from one and a weight decay on
the updated params.

Each file's docstring names its problem and the verdict a correct judge gives (``Expected:
VERDICT [reason]``), ``Cases: all`` where the examples alone do not show it, and ``Open:`` for a
hole still open (a strict expected failure). They are graded as a student's would be, with the
source gate on. The default run grades the first file of each expected verdict; ``-m slow``
grades the rest.
"""

from pathlib import Path

import pytest

from judge.run import sandbox
from tests.helpers import check_corpus_documented, corpus_files, corpus_params, grade_corpus_file

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round16b"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("adamw_step", "clip_by_global_norm", "ema_scan", "fake_quant_ste", "grad_reversal",
         "hvp_tanh", "masked_mean_xent", "pairwise_sq_dists", "per_example_clip", "sign_ste",
         "warmup_cosine")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round16b_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round16b_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 60
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {max((p for p in problems if path.stem.startswith(p + "_")), key=len)
               for path in ATTACKS}
    assert covered == set(FOCUS)
    for problem in FOCUS:
        assert sum(path.stem.startswith(problem + "_") for path in ATTACKS) >= 4, problem
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
