"""A held-out-style round (``tests/adversarial/round12b/``), written from the statements
alone, on the eleven problems whose rules are not the loop rules' own: adamw_step,
clip_by_global_norm, ema_scan (its styles, not its loop counters), fake_quant_ste,
grad_reversal, hvp_tanh, masked_mean_xent, pairwise_sq_dists, per_example_clip, sign_ste and
warmup_cosine.
Honest code in the styles students reach for: ``jax.tree_util`` maps, transposes, flattens and
reductions, ``ravel_pytree``, NamedTuple, dataclass and pytree-node-class state, recursion over
nested dicts, ``functools.partial``, closures and factories, ``jax.jit`` with static arguments,
``nondiff_argnums``, ``custom_vjp`` and ``custom_jvp`` rules written every way (residuals as
bools, floats or None, a scalar rule under ``vmap``, a rule on a dict, a rule on ``x / scale``
with the scale outside, a scale as a traced argument), ``jax.vjp``, ``jax.grad`` with
``has_aux``, ``jax.linearize``, forward and reverse over reverse, ``jacrev`` and ``jacfwd``,
``vmap`` over odd axes and with dict ``in_axes``, ``einsum``, ``inner``, ``vecdot``,
``dot_general``, ``lax.cond``, ``lax.switch``, ``jnp.select``, ``jnp.piecewise``, ``match``,
walrus, f-string prints, a ``__main__`` block, a ``global`` trace counter, ``jax.debug.print``
in a scan's step, Python loops over the m units (hvp_tanh) and over a tree's leaves.
Cheats and near misses beside them: masks applied outside a pass-through rule by a scatter of
``nonzero`` indices, a gather from a stack, a ``lax.cond`` per entry on x, a one-trip
``while_loop`` per entry stopped by x or a ``switch`` on the whole array (the cond and while
ones were accepted until the dataflow took a cotangent that left a rule back to raw inside a
control flow chosen by x), a sign put on the cotangent by flipping its bits,
a backward rule called by hand, ``custom_jvp`` and ``linear_transpose`` in place of the rule,
values rounded outside an identity computed as ``sign(v) * |v|`` (the values reach the rule's
output only through ``round``, whose derivative is zero; its other spellings are in round 7),
``cumsum`` inside a jitted
``cond`` branch, a Hessian under ``vmap``, ``lax.map``, a batch padded to 64 rows, a loop over
the features, callbacks under ``jit`` and ``cond``, ``int(step)``, an ``optax`` import; and
numerically wrong honest forms (an unshifted log-sum-exp, an unguarded norm at zero, the
textbook ``x + stop_gradient(sign(x) - x)``, a ``custom_vjp`` that ``jax.jvp`` cannot enter).

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round12b"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("adamw_step", "clip_by_global_norm", "ema_scan", "fake_quant_ste", "grad_reversal",
         "hvp_tanh", "masked_mean_xent", "pairwise_sq_dists", "per_example_clip", "sign_ste",
         "warmup_cosine")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round12b_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round12b_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 100
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {max((p for p in problems if path.stem.startswith(p + "_")), key=len)
               for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
