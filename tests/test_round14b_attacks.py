"""A third held-out-style round on the eleven older problems (``tests/adversarial/round14b/``),
written from the statements alone: adamw_step, clip_by_global_norm, ema_scan, fake_quant_ste,
grad_reversal, hvp_tanh, masked_mean_xent, pairwise_sq_dists, per_example_clip, sign_ste and
warmup_cosine.
Honest code in styles the earlier rounds did not hold, most of them around the custom_vjp rules:
a rule written for one scalar and ``vmap``-ed over the flattened input, ``jax.checkpoint`` (with
and without a policy) around a rule, ``lax.map`` of a rule over the rows of ``atleast_2d(x)``
(unrolled by JAX into a ``split`` of the cotangent, which the dataflow took for a change until it
counted ``split`` as a move), rules on dict trees, a frozen dataclass as a nondiff argument, a
rule built in a class's ``__init__``, a ``lax.switch`` on the static rank, ``cond`` and ``switch``
on x per row or per entry under ``vmap`` whose branches apply the same rule to the row moved
differently (under ``vmap`` a select on x whose transpose splits the cotangent into pieces: refused
until each piece was followed through its rule and the pieces counted whole where they all
arrive, through the same functions' rules), per entry under ``lax.map``, and a factory of the
rule called in each branch (one function: the same code over the same numbers); ``custom_jvp``
quantizers on static methods under ``jit``, in an ``lru_cache`` factory per dtype, in a dtype table
of ``partial``s, with nested ``where``s on weak literals, and per entry under ``vmap``; a scan
with ``reverse=True`` over reversed rows, one with ``length=T`` and no ``xs``, a checkpointed
lerp step on a dataclass, a dict carry, a float32 decay in a closure under ``named_scope``;
``tree_util.Partial`` models, a ``custom_vjp`` tanh under forward-over-reverse, ``jacrev`` of the
directional gradient, ``jvp`` of ``value_and_grad``; a model class with ``grad(argnums)``, an
optax-like per-example clip on a batched tree, an ``lru_cache``d jitted step, the augmented
closed form, ``vmap`` of ``jacrev``; kernel classes, registered dataclasses, ``vmap`` over rows of
the expansion, centred sets; a dataclass loss, ``vmap`` over sequences, optax's integer-label
cross-entropy by hand, ``segment_sum``, ``broadcasted_iota`` under ``named_scope``;
``searchsorted`` and ``digitize`` with ``lax.switch``, ``jnp.interp`` in a jitted dataclass,
nested ``cond``s on a tuple; AdamW as an optax-like class over a registered state, b^t by
squaring in a fixed ``fori_loop``, ``flatten_up_to``, ``tree_transpose`` of a ``partial`` leaf
update, ``jnp.power`` of an int exponent, nested dict comprehensions, a ``try``/``except`` around
``int(count)``; a ``cond`` that computes the norm again in its clipping branch, a ``custom_jvp``
norm of a raveled tree, an optax-like class with a double ``where``, ``hypot`` over cached key
paths, ``tree.reduce`` with a floored square.
Cheats and near misses beside them: a rule chosen per entry by x between two functions (one
passing the cotangent, one zeroing it) in a ``cond`` under ``lax.map`` (accepted until the
branches of a control flow chosen by x had to pass the cotangent through the rules of the same
functions) or by a static mode of one function (accepted until a static argument made its
function another) or a flag in a factory's closure, the same choice under ``vmap`` or by
``where``, one piece of a select on x
dropped or zeroed after its rule, the layer applied to x for y and pulled back at
``zeros_like(x)`` (accepted until a rule counted only for the application its forward rule ran
for), the values a formula beside an identity rule, a switch on x to a formula, -λ in the seed of
``grad`` or put on the cotangent through ``tree_map``, a rule chosen by the sign of dy's sum, a
``custom_jvp`` that hides Y, a scan over the rows twice, a ``fori_loop`` or ``lax.map`` where the
statement refuses loops, and ``pure_callback`` through ``importlib``; and numerically wrong honest
forms (``sg(sign) + x - sg(x)`` left to right, rows rescaled by decay^-t, ``xlogy`` of a softmax,
a float16 step, a stopped norm).

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round14b"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("adamw_step", "clip_by_global_norm", "ema_scan", "fake_quant_ste", "grad_reversal",
         "hvp_tanh", "masked_mean_xent", "pairwise_sq_dists", "per_example_clip", "sign_ste",
         "warmup_cosine")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round14b_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round14b_is_documented():
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
