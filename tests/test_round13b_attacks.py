"""A second held-out-style round on the same eleven problems (``tests/adversarial/round13b/``),
written from the statements alone: adamw_step, clip_by_global_norm, ema_scan, fake_quant_ste,
grad_reversal, hvp_tanh, masked_mean_xent, pairwise_sq_dists, per_example_clip, sign_ste and
warmup_cosine.
Honest code in styles the earlier rounds did not hold: an optax-like chain of hand-written
transformations, frozen dataclasses and ``functools.lru_cache`` factories (of leaf rules, of
quantizers and reversal layers per static value, of class ids and schedule constants), classes
registered with ``register_pytree_node`` and ``register_dataclass`` (λ a meta field), step
counters in ``uint32``, ``uint8`` (a while's counter) and ``int16`` (a scan's carry), ``int64``
and ``float64`` with x64 off, ``jax.jit`` with ``static_argnames``, ``tree_map_with_path``,
``tree_transpose``, ``flatten_up_to``, ``functools.reduce`` over ``jnp.hypot``, ``rsqrt`` of a
floored square, ``sqrt(max(s, max_norm ** 2))``, ``lax.select``, a scan with ``unroll=4`` and one
over a tuple of rows and weights, ``custom_vjp`` rules on static methods with an ``int8`` mask,
on a dict of residuals, or choosing by data between two exact spellings, ``custom_jvp`` with
``defjvps``, with a dtype as a nondiff argument, around tanh for a Hessian-vector product,
reverse over forward, the Hessian in the units' space (m x m), ``jax.linearize`` of a model
class, ``cumsum`` and ``broadcasted_iota`` masks, advanced indexing, one augmented matrix
product, ``jnp.inner`` and ``tensordot``, ``vmap`` of a ``partial`` of ``grad``, ``lax.switch`` on
a sum of bools or over an ``IntEnum``'s phases, ``optax``'s ``join_schedules`` written by hand,
``itertools.accumulate``, ``collections.namedtuple``, ``typing.NamedTuple`` with a method,
``functools.cached_property``, gradients accumulated into zeros (a sum and a ``tree_map`` add), a
``custom_vjp``'s rules as static methods named through their class (``Layer._fwd``, which the
source gate refused until it read a class of the file's own), a ``cond`` or ``switch`` on x whose
branches apply the rule to x moved differently, ``jax.grad`` of a weighted sum or a ``vdot``
inside a ``cond`` on x (refused until the dataflow let an output every branch computes alike,
the cotangent handed on as a residual, pass the choice unmixed), ``print`` calls and
``__main__`` blocks.
Cheats and near misses beside them: ``lax.associative_scan`` for the EMA, a scan of the decay's
powers beside a closed form by doubling, a scan over 64 padded rows, loops padded to 16
features or 64 examples by ``take(mode="fill")``, the full Hessian where d is small, a step
number made a Python int under ``ensure_compile_time_eval``, positions as a NumPy constant
there, an identity rule whose mask or -λ is applied outside it (the cotangent masked before the
pullback, a product with ``-lam * eye``, a pullback of ones times ``dy``), a plain STE rule run
inside the branches of a ``cond`` per entry on x whose other branch gives zeros, the rule's
output times zero or a cotangent zeroed before the rule, or inside a ``while`` per entry stopped
by x (all four accepted until the dataflow asked the branches of a control flow chosen by x to
move the cotangent only and to give one in every branch), a backward rule chosen by the sign of
a sum, four fixed chunks of 16 rows (open), a ``stop_gradient`` through ``tree_map``, callbacks through ``getattr``,
an aliased ``io_callback`` in a ``cond`` branch and ``jax.debug.callback`` in a rule; and
numerically wrong honest forms (an ``int16`` counter that wraps, a softmax clipped before its
log, ``x / (|x| + 1e-12)``).

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round13b"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("adamw_step", "clip_by_global_norm", "ema_scan", "fake_quant_ste", "grad_reversal",
         "hvp_tanh", "masked_mean_xent", "pairwise_sq_dists", "per_example_clip", "sign_ste",
         "warmup_cosine")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round13b_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round13b_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 60
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {max((p for p in problems if path.stem.startswith(p + "_")), key=len)
               for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
