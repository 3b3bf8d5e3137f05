"""A thirteenth held-out-style round (``tests/adversarial/round13/``), written from the statements
alone, on spectral_norm, mixed_precision_step, batched_attention and loss_and_grads.
Honest code: spectral_norm by a ``while_loop`` over ``(i, u, v)`` (counting up, or down from
K), ``scan(length=K)`` with ``xs=None`` and ``unroll``, ``fori_loop`` with ``unroll=True`` or 2
or from 1 to K + 1 over a dict, two steps a trip with the odd step written out, a module-like
class, a ``custom_jvp`` with K in ``nondiff_argnums`` and a three-operand ``einsum(...,
optimize=)``, a jitted body with K static and a ``named_call`` step, a ``checkpoint`` step,
sigma as the Rayleigh quotient's root or ``norm(W @ v, 2)``; mixed_precision_step with
``jax.tree.map`` over ``(params, grads)``, ``jax.tree.reduce(jnp.logical_and, ...)``,
``lax.cond`` returning whole dicts, ``jnp.asarray(..., jnp.float16)`` and ``jnp.float16(x)``
casts, ``jax.vjp`` pulled back at a float16 one, a ``tree_util.Partial`` loss, a jitted step
with static and donated arguments, ``1 / loss_scale`` multiplied in, ``partial(jnp.where,
finite)`` over optax-like updates, the counter by ``%`` or ``jnp.where``; batched_attention by
``einsum(optimize=)`` with a NumPy scale, a ``Partial`` or a module-like class mapped by
``vmap``, ``logsumexp(b=mask)``, ``named_call`` with explicit axes, ``lax.batch_matmul``,
``jnp.vectorize`` with a signature, ``vmap(axis_size=)``, a softmax by hand, queries scaled
first; loss_and_grads with optax-style integer-label cross entropy, ``jnp.take`` of flat
log-probabilities, ``logsumexp(b=one_hot)``, a per-example loss under ``vmap(axis_name=)``
averaged by ``lax.pmean``, ``Partial``, module-like classes, ``jax.linearize`` and
``linear_transpose``, a closed form by ``.at[rows, y].add(-1)``.
Cheats beside them, and what they found: a matrix product written under another primitive's
name passed the rules that read names: ``lax.ragged_dot`` (now a ``dot_general`` to every
rule), for loss_and_grads's loss computed a second time and for a float32 backward pass on
mixed_precision_step; ``ormqr``'s Householder reflectors carrying x @ w within the size cap
(loss_and_grads now counts the routines that apply one matrix to another); a float32 backward
pass read off ``lax.linalg.symmetric_product`` (mixed_precision_step now lists it with
``ormqr``, ``cholesky_update``, ``atan2`` and QR's ``geqrf``); and the gradient's last
products as convolutions of float16 operands into float32 (refused now as a ``dot_general``'s
float32 result is). Those already refused stay as tests: a scatter that multiplies, float32
emulated by ``reduce_precision``, a float32 backward in a ``custom_vjp`` rule, (t, s, d)
products in a ``custom_vjp`` forward rule, a data-dependent ``cond`` branch or a jitted call
with static and donated arguments, a second forward pass in a ``custom_jvp`` primal, a scan
over a fixed ``arange(64)``, a ``pure_callback`` reached through a ``partial``; and mistakes:
a Python ``bool`` of traced flags by ``tree_util.tree_all``, ``exp2(log2(scale))`` (not exact),
an unstable softmax, ``jacfwd``'s (d, k, n, k) tangents.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round13"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("batched_attention", "loss_and_grads", "mixed_precision_step", "spectral_norm")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round13_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round13_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
