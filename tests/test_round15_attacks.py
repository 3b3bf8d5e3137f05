"""A fifteenth held-out-style round (``tests/adversarial/round15/``), written from the statements
alone, on spectral_norm, mixed_precision_step, batched_attention and loss_and_grads.
Honest code: spectral_norm by a ``while_loop`` over ``(i, u, v)`` with the pair stopped after it,
``scan(length=K)`` with ``xs=None`` and ``jnp.vdot``, ``fori_loop`` with ``unroll=True`` and
``unroll=2``, sigma as the Rayleigh quotient ||W v|| of the stopped v, a state class registered
by ``register_pytree_node_class``, a ``NamedTuple`` state through a ``scan``, a module-like class
with ``__call__``, the first step written out before ``fori_loop(1, K)``, two steps to a trip
with the odd step after, 2K half steps chosen by a ``cond`` on the counter's parity,
``matmul(precision=HIGHEST)``, ``lax.dot_general`` with ``vector_norm``, a ``custom_vjp``
keeping u and v as residuals, a jitted iteration with K in ``static_argnums`` and sigma as an
elementwise sum, sigma carried out of the loop from its last trip, ``norm(v, ord=2)`` of a
vector; mixed_precision_step with ``jax.tree.map`` over ``(params,
grads)`` and ``jax.tree.reduce`` of ``isfinite``, a ``cond`` with operands returning whole dicts,
``.astype("float16")``, a ``register_dataclass`` scaler, a module-like MLP, ``grad(has_aux=True)``
with ``ravel_pytree``, a ``tree_util.Partial`` loss pulled back by ``vjp``, ``dot_general`` with
a ``NamedTuple`` result, ``checkpoint`` with a dots policy, a jitted step with static ``lr`` and
``period``, a float16 mean as a sum over ``n``, ``finite`` read off the sum of the leaves' sums, ``value_and_grad`` of a scaled loss function;
batched_attention by ``softmax(where=)``, a softmax by hand with the ``where`` before the
``exp``, ``logsumexp(b=mask)``, ``einsum(optimize="optimal")`` with ``-inf`` fills, a
module-like class vmapped, ``vmap`` over a dict, a jitted ``attend`` with
``precision="highest"``, a ``vmap`` over the keys with ``axis_name`` and ``pmax``/``psum``,
softmax weights multiplied by the float mask, the queries scaled before the product; loss_and_grads with ``take_along_axis`` and
``log_softmax``, ``jnp.take`` of a flat index, ``one_hot(dtype=)``, ``logsumexp(b=one_hot)`` for
the picked logit, a module-like linear layer through ``vjp``, a per-example loss under
``vmap(axis_name=)`` averaged by ``pmean``, the gradient by hand from ``exp(l - max)`` and
from ``softmax - take(eye(k), y)``, ``NamedTuple`` params, ``value_and_grad(argnums=0)`` of a
pair, the forward pass a ``named_call``, ``vjp(has_aux=True)`` with the logits as the
auxiliary output, ``value_and_grad`` of the head alone and the chain rule by hand. Mistakes, each a WA: hidden scores given a score of zero; ``where`` after the ``exp``
of the hidden scores (an infinite ``exp`` whose derivative is NaN), by hand and after
``logsumexp(b=)``; a ``minimum`` clamp whose tie at each row's maximum halves the
derivative; ``xlogy`` of a softmax that underflows.
Cheats: spectral_norm's steps in a Python loop inside a ``custom_vjp`` backward rule and
inside a ``custom_jvp`` primal, K trips of eight masked steps, a NumPy SVD through a
``pure_callback`` held only by a backward rule; mixed_precision_step's float32
products as ``scatter_mul``, in a ``while_loop`` accumulator, in a ``custom_jvp`` tangent rule
of ``tanh``, as a float16 product accumulated into float32 in a ``custom_vjp`` backward rule,
in int32 fixed point; batched_attention's (t, s, d) products in ``lax.map`` of a ``vmap`` over
rows; all refused. What they found, still open: loss_and_grads's loss computed a second time
with elementwise products in pieces of two columns under the size cap (the rule counts matrix
products by primitive); mixed_precision_step's float32 backward pass of squares from tent maps
of ``abs`` is refused since the rule holds the values returned to straight ones (casts of
float16 values, their sums and scalings: ``straight: true``), and honest float32 choices by
finiteness tests stay straight.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round15"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("batched_attention", "loss_and_grads", "mixed_precision_step", "spectral_norm")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round15_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round15_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
