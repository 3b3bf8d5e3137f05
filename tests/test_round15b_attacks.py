"""A fourth held-out-style round on the eleven older problems (``tests/adversarial/round15b/``),
written from the statements alone: adamw_step, clip_by_global_norm, ema_scan, fake_quant_ste,
grad_reversal, hvp_tanh, masked_mean_xent, pairwise_sq_dists, per_example_clip, sign_ste and
warmup_cosine.
Honest code in styles the earlier rounds did not hold, most of them around the custom_vjp rules: a
quantizer applied twice, ``q(q(x))`` (graded on the examples: refused as values not computed by the
function until an application's input marker took off what an earlier application of the same
function had made; on every case it is numerically wrong, the second rule reading ``s * qmax / s``
just above qmax), a rule run per row inside ``lax.scan`` (applied there, or applied and pulled back
in the scan's body), a rule built by a factory at each call and wrapped in ``named_call`` and
``jit``, a rule with an array argument whose backward gives ``None`` for it, ``vmap`` with an
``in_axes`` tree over a dict argument, ``jnp.vectorize`` of a scalar rule, a rule on a pair of
halves, the pullback ``vmap``-ed over a batch of one cotangent, pullbacks taken per row or per
entry under ``vmap``, ``vjp`` with ``has_aux`` over columns, a frozen dataclass module with a print
and a ``__main__`` block, a class of static methods jitted with ``static_argnames``, an
equinox-like registered module whose rule gives ``None`` for it, the layer on a transposed view
under ``jit``, a ``fori_loop`` over rows writing each into the output, a quantizer whose forward
calls a rounding rule of its own or quantizes the parts ``jnp.unstack`` gives, a ``tree_map`` over
a list of entries, and the layer applied to rows taken apart by ``jnp.unstack`` in a Python loop
and put back by ``jnp.stack`` (refused until ``stack`` and ``unstack``, the primitives JAX binds
for them, counted as moves); ``custom_jvp`` quantizers applied twice, by ``defjvps`` under
``jnp.vectorize``, per dtype in a jitted factory, with the levels as constants in capitals; forward
over reverse on a dict argument and through a checkpoint policy, ``linearize`` beside an
``lru_cache``d shape helper, a loop over the units folded by ``functools.reduce`` under
``static_argnames`` or over the rows ``jnp.unstack`` gives; an ``EMA`` class with a ``named_call``
step, rows fed as ``(1, d)`` slices, a ``fori_loop`` with float32 coefficients, a carry stacked
with the previous row; a registered dataclass of parameters with ``tree_reduce``, ``jacrev`` of the
loss vector, an optax-like chain of transforms, the augmented closed form with ``hstack`` and
``einsum``, a batch as a dict under ``in_axes``, feature columns stacked in a Python loop;
``jnp.select`` in a dataclass, ``lax.switch`` on an int16 phase, ``jnp.piecewise`` with ``partial``
helpers, nested ``cond``s on the float step, an int32 offset under ``lax.clamp``; AdamW with a
float step number and ``exp(t log b)`` or ``float_power``, an optax-like chain, NamedTuple leaves
picked by position, key paths with prints and asserts, a class jitted on ``self``; the clip with a
clamped sum, ``rsqrt`` behind a double ``where``, a dataclass ``cond`` on the squares,
``ravel_pytree``, a safe norm times an indicator; the cross-entropy with
``jnp.vectorize(signature=...)``, a class of static methods, padding zeroed first, an equality
one-hot, ``vmap`` of a ``partial``, a token loss ``vmap``-ed twice, a frozen dataclass jitted on
itself; the distances with ``add.outer``, a hand-written ``custom_vjp``, a ``cached_property``,
``dot_general`` at ``HIGHEST``, ``vmap`` over an ``in_axes`` dict, ``jnp.inner``.
Cheats and near misses beside them: a ``custom_jvp`` quantizer by ``defjvps``, a plain rule in a
scan whose body applies the mask outside it, an identity written as ``stack(unstack(v))`` with the
rounding outside, ``jacrev`` of the quantizer contracted with the cotangent, an identity rule in a
scan whose body applies -lambda or per unstacked row, the cotangent scaled by a factor folded with
``functools.reduce`` under ``ensure_compile_time_eval``, the layer pulled back at zeros taken as a
slice of ``concatenate([x * 0, x])``, a row of ``stack([x * 0, x])``, the padding of ``pad(x)`` or
a ``take`` filled out of bounds (accepted until a join counted as x moved only where all it joins
is, and a filling gather not at all; honest code that pads x before the layer is refused with them,
a strict xfail), the reversal layer applied twice, a tangent rule zero at zero, ``pure_callback``
through ``operator.attrgetter``, ``jvp`` of ``jacfwd``, a wrong-signed second derivative,
``cumprod`` beside a counting scan, ``associative_scan`` beside a scan of one column, a bias
correction left in, ``lax.map`` with ``batch_size``, a uint16 step, ``int(count)`` under
``ensure_compile_time_eval``, ``linalg.norm`` of leaf norms (NaN at zero), and ``vectorize`` over
every pair.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round15b"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("adamw_step", "clip_by_global_norm", "ema_scan", "fake_quant_ste", "grad_reversal",
         "hvp_tanh", "masked_mean_xent", "pairwise_sq_dists", "per_example_clip", "sign_ste",
         "warmup_cosine")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round15b_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round15b_is_documented():
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
