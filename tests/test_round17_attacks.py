"""Round 17 of honest code (``tests/adversarial/round17/``) against three readings of the judge:
the values moved with the custom_vjp function's output (``custom_vjp_grads`` with ``values``:
the program evaluated again with every such output moved far up and far down, every entry of
the values changing where the gradient is not zero), float16 values kept straight
(``primitive_dtypes`` with ``straight: true``: no returned value a wider type bent out of the
data), and a refused built-in's name used as a function's own variable.

On fake_quant_ste: the function returning the integer level with the scale multiplied after,
the level cast to ``int32`` and back, the output clipped again by ``jnp.clip``,
``jnp.minimum``/``jnp.maximum``, ``lax.clamp``, ``where`` on the output or on ``x``, rounded to the grid again,
``jnp.sign(out) * jnp.abs(out)``, ``out / scale * scale``, ``jnp.nan_to_num``, ``floor(level +
0.5)``, a ``where(isfinite)`` guard, a scalar quantizer and a row quantizer under ``vmap``, ``lax.map`` and a
``scan`` over rows, ``jit`` with ``static_argnums`` and ``nondiff_argnums`` or around the whole entry point, a ``round_ste``
nested inside the quantizer and ``clip_ste`` composed with ``round_ste``, a pair output with
``int32`` codes (a ``float0`` cotangent) kept as ``has_aux``, a dict output under
``stop_gradient``, and the values from a second call beside ``jax.grad`` of a weighted sum.

On mixed_precision_step: ``ravel_pytree`` and ``jax.tree.reduce(jnp.logical_and)`` finiteness
tests, ``max(abs(g)) < inf``, ``~any(isnan | isinf)``, the test on the float16 gradient, ``apply_if_finite``-style
``where`` per leaf, ``lax.cond`` over whole trees, the scale updated by a factor chosen by
``where``, by ``jnp.ldexp`` and by ``jnp.power``, ``good_steps`` by integer arithmetic, the
unscale by ``g * (1 / loss_scale)``, ``g * lr``, ``is_leaf``, a ``NamedTuple`` state chosen by ``lax.select``, the loss as ``sum / n``,
``value_and_grad(has_aux=True)`` with the loss reported in float32, ``jnp.float32(lr)``, the
gradient zeroed by ``where`` before an unconditional update, updates applied optax-style and
a ``fori_loop`` over the leaves' flags.

Names: PyTorch-ported parameters ``input``, ``vars`` for an optimizer's variables, loop
variables ``input`` and ``open``, ``compile`` for a jitted helper, ``eval`` as a keyword flag,
``locals`` for local attention scores, a ``with ... as open`` binding, and a comprehension's
own ``input``.

One was refused by the source gate until fixed: a generator's own variable named ``input``
(``sum(jnp.sum(input * input) for input in leaves)``), refused wherever a comprehension bound
the name, now allowed anywhere in that comprehension but its first iterable, which Python
evaluates outside it (``judge.gate.shadows``). Five stay refused (``Open:``): the values taken
through an operation of zero derivative after the custom_vjp function that changes none of its
outputs (the level cast to ``int32`` and back, rounded to the grid again, ``floor(level +
0.5)``, ``sign(out) * abs(out)``), which the dataflow cannot tell from a rounding done outside
an identity written as a computation; and the clip written by ``where`` on ``x`` around a
function that only rounds, differentiated whole, a mask chosen by ``x`` outside the rule.
Every mixed_precision_step style passed the float16 reading as it stands.

Each file's docstring names its problem and the verdict a correct judge gives (``Expected:
VERDICT [reason]``), ``Cases: all`` where the examples alone do not show it, and ``Open:`` for a
refusal still open (a strict expected failure). They are graded as a student's would be, with
the source gate on. The default run grades the first file of each expected verdict; ``-m slow``
grades the rest.
"""

from pathlib import Path

import pytest

from judge.run import sandbox
from tests.helpers import check_corpus_documented, corpus_files, corpus_params, grade_corpus_file

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round17"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round17_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round17_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 9 * len(honest) >= 8 * len(ATTACKS)
