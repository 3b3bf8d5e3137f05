"""A twelfth held-out-style round (``tests/adversarial/round12/``), written from the statements
alone, on what an ordinary student writes for batched_attention, loss_and_grads,
mixed_precision_step and spectral_norm's derivative apart from its loop.
Honest code: attention by ``jnp.einsum`` with ellipses or batch letters, ``q @ swapaxes(k)``,
``jnp.inner``, ``jnp.tensordot``, ``lax.dot_general`` at ``Precision.HIGHEST``; masks as
``-jnp.inf``, ``-1e9``, ``finfo.min``, a fill relative to the row's smallest score,
``softmax(where=)`` with or without zeros after, a float mask multiplied into the
exponentials, log-weights less their ``logsumexp``; ``vmap`` with ``in_axes`` spelled in
several ways (a tuple, 0, a dict over a dict of examples, a ``partial`` decorator), nested over
the examples and the queries, around ``jax.remat``/``checkpoint`` with a policy or a
``custom_vjp`` with its backward rule written out. loss_and_grads by ``value_and_grad`` with
``argnums=(0, 1)`` over unpacked params, ``grad``/``jacrev`` with ``has_aux``, ``jax.vjp`` of
``(w, b)``, one-hots by comparison with ``arange``/``broadcasted_iota``, ``jax.nn.one_hot`` or
rows of ``eye`` or by comparing the labels as floats (refused before as a third product of the
data: a comparison of the labels made floats is now a decision, as one of the integers is),
log-sum-exp by hand, the gradient in closed form ((softmax - one-hot) / n, the bias's as a
product with ones), labels cast to int64 with 64-bit types off. mixed_precision_step with a ``jmp``-style policy
and loss-scale class, ``lax.select`` per leaf, ``lax.cond`` with closures or an operand,
``tree_flatten`` lists and ``optax.sgd``-like updates, ``ravel_pytree`` for the check, the
counter by ``%``, the scale doubled as a sum or by a factor picked from the decisions.
spectral_norm with sigma as ``norm(W @ stop_gradient(v))``, a ``custom_vjp`` with K
non-differentiable, a ``custom_jvp`` closed over K, a while on W itself with u and v stopped.
Cheats beside them: the loss computed beside ``jax.grad`` on stopped operands, or from x @ w
rebuilt by a triangular solve, or from float8 pieces of x and w whose products accumulate in
float32 (a product in a type the rule did not list, now counted: the specs' dtype lists name
every type), a float32 loss head squared by ``jnp.square`` or as ``abs(r) ** 2``, and a
``fori_loop`` of eight trips over the examples clamped to the batch, a ``while_loop`` stopped at
8 and a ``scan`` over ``arange(8)`` (loops padded to a fixed count that index the examples by
their counter, refused: ``judge.rules.fixed_loops``); and two mistakes (a stopped softmax denominator, sigma's derivative run
through the steps), and ``len(y)``, which no symbolic trace can give a number.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round12"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("batched_attention", "loss_and_grads", "mixed_precision_step", "spectral_norm")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round12_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round12_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 36
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
