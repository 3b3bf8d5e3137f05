"""A sixteenth held-out-style round (``tests/adversarial/round16/``), written from the statements
alone, on spectral_norm, mixed_precision_step, batched_attention and loss_and_grads. Honest code:
spectral_norm by a frozen dataclass state registered by ``register_dataclass`` and stepped by
``dataclasses.replace`` in a ``while_loop``, a ``fori_loop(1, K)`` carrying v alone after a first
half step with u recomputed outside, sigma as a ``custom_jvp`` whose rule takes ``symbolic_zeros``,
``partial(lax.fori_loop, 0, K)``, ``scan(unroll=K)``, the vectors stopped inside the ``scan`` body
and sigma as ``sum(W * outer(u, v))``, a list carry with ``keepdims`` norms, the iteration on a
stopped copy of W; mixed_precision_step by ``tree_map_with_path`` with ``keystr``, ``ravel_pytree``
of params and grads updated flat by ``lax.select``, a ``NamedTuple`` scaler with methods and an
``apply_if_finite`` helper, ``jacrev`` over the three leaves as separate arguments,
``tree.transpose`` of (new, old) pairs with the counter by ``lax.cond``, ``einsum`` with finite
from ``logical_and.reduce``, the scale's exponent moved by ``frexp``/``ldexp``, the head's gradient
pulled back through the network by ``vjp``, leaves moved and written at constant indices (gathers
and a scatter); batched_attention by ``einsum`` over the batch with ``-inf`` and ``nan_to_num``,
``vmap`` over examples, queries and value columns, ``max(where=, initial=)`` with the ``where``
before the ``exp``, an additive ``-inf`` bias, ``dot_general`` with batch dimensions and
``finfo(dtype).min``, ``k.mT`` with the weights returned as an auxiliary output, a base-2 softmax
by ``exp2``, a jitted ``attend`` with a static scale, hidden scores replaced by the stopped row
maximum; loss_and_grads by ``value_and_grad(has_aux=True)`` with a metrics dict, a one-hot by
comparison with ``vdot``, a backward by hand with ``dot_general`` over the examples,
``value_and_grad(argnums=(0, 2), allow_int=True)``, ``grad(argnums=(0, 1), has_aux=True)``, the
params as a list of leaves, ``sum(where=)`` of a boolean one-hot, ``exp`` of the log-softmax for
the gradient by hand, a ``batch`` dict, the loss computed again from the auxiliary logits.
Mistakes: the softmax over the queries (WA) and the output's columns by a ``vmap`` of broadcast
products (a b t s e value). Cheats: spectral_norm's steps by Python recursion beside a counting
``scan``, and (W^T W)^K by recursive ``checkpoint``ed squarings beside a counting ``fori_loop``;
batched_attention's scores from products of four features at a time (past the bound at d = 4);
mixed_precision_step's float32 products from ``frexp`` mantissas multiplied in float16 and put back
by ``ldexp``, float32 squares read from a constant table indexed by float16 bits
(``bitcast_convert_type``; it passed: a lookup at indices computed from the data is now refused
there in every type), and a float32 backward rounded by ``reduce_precision``; loss_and_grads's
second forward pass by ``value_and_grad`` called twice, by ``linearize``'s primal beside ``grad``,
by a separate product beside ``vjp``, and in a ``custom_vjp`` backward rule. What it found, still
open: spectral_norm's (W^T W)^(K-1) by squarings on the trips of a K-trip ``fori_loop`` at a
power-of-two distance from its last (``j & (j - 1) == 0``), the last applying the power: the loop's
last trip moves the output, and the idle trips are not measured.

Each file's docstring names its problem and the verdict a correct judge gives (``Expected: VERDICT
[reason]``), ``Cases: all`` where the examples alone do not show it, and ``Open:`` for a hole still
open (a strict expected failure). They are graded as a student's would be, with the source gate on.
The default run grades the first file of each expected verdict; ``-m slow`` grades the rest.
"""

from pathlib import Path

import pytest

from judge.run import sandbox
from tests.helpers import check_corpus_documented, corpus_files, corpus_params, grade_corpus_file

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round16"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("batched_attention", "loss_and_grads", "mixed_precision_step", "spectral_norm")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round16_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round16_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
