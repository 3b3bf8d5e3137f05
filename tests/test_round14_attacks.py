"""A fourteenth held-out-style round (``tests/adversarial/round14/``), written from the statements
alone, on spectral_norm, mixed_precision_step, batched_attention and loss_and_grads.
Honest code: spectral_norm by ``jnp.linalg.multi_dot``, ``jnp.vecmat`` and ``jnp.matvec`` in a
``while_loop`` over a dict, a ``custom_vjp`` whose backward rule is ``c * outer(u, v)``, a
``scan`` with ``reverse=True`` and ``rsqrt`` normalisation, the pair stopped by
``jax.tree.map``, a ``named_scope``, a ``custom_jvp`` of sigma(W, u, v) with the vectors'
tangents left out, a ``tree_util.Partial`` step with ``lax.dot``, a jitted power iteration with
K in ``static_argnames``, ``fori_loop(unroll=8)``, K carried in a ``while_loop``, a ``vmap``
over a batch of one, a concatenated carry; mixed_precision_step with ``tree_map_with_path`` and
``lax.select``, a ``lax.switch`` over the three outcomes, a ``vjp`` pulled back at the scale,
flattened leaf lists, ``isnan | isinf``, float16 ``einsum``, a ``NamedTuple`` state through
``lax.cond``, a jitted gradient unscaled by a reciprocal, ``is_leaf`` and a ``lax.rem``
counter, the gradient taken at the float32 params, ``finite`` read on the float16 gradient, a
``cond`` of closures, ``preferred_element_type=float16``, the update in a ``fori_loop`` of
one trip; batched_attention by
``jax.nn.dot_product_attention`` with the values padded to the queries' width, a stopped row
maximum, a ``finfo.min`` fill, ``vmap`` of a ``checkpoint``, ``log_softmax(where=)``,
``logsumexp(where=)``, ``vmap(axis_name=)``, ``einsum(optimize=True, precision=HIGHEST)``,
``dot_general`` over a dict mapped by ``vmap``, a double ``vmap`` over rows, an additive
``-1e9`` mask; loss_and_grads with ``logsumexp(return_sign=True)``, a stopped maximum, a
``custom_vjp`` loss, ``vjp`` of a ``partial``, ``take_along_axis(mode="clip")``, classes-first
logits, a closed form by ``dot_general``, fancy indexing by ``arange(n)``, a per-example
forward under ``vmap``, an ``einsum`` with the one-hot, ``logsumexp(where=)`` for the picked
logit.
Cheats beside them, and what they found: a float32 backward pass on mixed_precision_step whose
products run in a ``fori_loop`` over the entries, each trip rebuilding one factor's entry from
scalar bools (a bool of shape ``()`` was a decision, not data, so the product counted one data
operand; inside a loop's body such a bool is now data, and so is what a ``cond`` on a data
index chooses); sums of selections over the bits of one factor read by ``floor`` (refused
since the values returned must be straight, as round 6's form by bitcast is); products by ``lax.one_minus_square`` ((1 - (a - b)^2) -
(1 - (a + b)^2) = 4ab: JAX 0.11's own primitive, accepted there until a rule naming ``square``
read it as one). Those already refused stay as tests: products as the generic
``reduce`` or ``reduce_window`` primitive with a multiplying body (a function the rules would
count once); loss_and_grads's loss from x @ w computed a second time by an LU factorisation
(too large); (t, s, d) products in a ``custom_vjp`` backward rule; sixteen steps to a trip,
binary powers of W^T W beside a counting loop, a Python loop under ``checkpoint`` and
``named_call``; and a mistake: spectral_norm differentiated through its steps.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round14"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("batched_attention", "loss_and_grads", "mixed_precision_step", "spectral_norm")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round14_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round14_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
