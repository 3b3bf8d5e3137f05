"""A sixth held-out-style round (``tests/adversarial/round10/``), written from the statements
alone and aimed first at spectral_norm and mixed_precision_step, then batched_attention and
loss_and_grads, with a few files for the older problems. Honest code: W carried through the
loop beside u and v, iterates kept bounded by their largest entry and normalised after the
loop, an inner loop of the two half steps in each of K trips, sigma as sqrt(v^T W^T W v), a
``custom_jvp`` by ``defjvps``, K stopped copies of W scanned as xs, a dict state with products
written as broadcasts and sums, powers of W^T W built one a trip, while loops tested by
``i != K``, ``K > i``, ``i <= K - 1``, ``jnp.all(i < K)`` on an unsigned counter, from -K to 0
and counting down while ``i >= 1``, a counter of shape (1,) read as ``i[0]``, a ``uint8``
counter, ``fori_loop(-K, 0)``, one jitted iteration per K kept by ``lru_cache``, a
``tree_util.Partial`` body carrying u alone (spectral_norm); bookkeeping as
integer products of decisions, ``finite`` from the largest magnitude, the old operand-tuple
``lax.cond``, hand-written module classes with ``dot_general`` into float16, ``jnp.reciprocal``
of the scale and ``ldexp``, a float16 sum divided by a symbolic row count
(mixed_precision_step); ``log_softmax`` of -inf-filled scores exponentiated (batched_attention);
``jax.nn.one_hot`` with a symbolic class count, ``argnums=(0, 1)`` rewrapped (loss_and_grads);
the Hessian-vector product's closed form and ``jvp`` of a partial ``grad`` (hvp_tanh), and a
few more of the older problems.
Wrong answers and cheats beside them: a ``custom_vjp`` forward rule or ``custom_jvp`` rule
that runs the steps in a Python loop (alone, or beside a loop of K trips), a while's test
against the data wrapped in ``jnp.any``, a counter of shape (1,) started from W, K = 1
written out with no loop, three
masked steps in each of K trips, sigma as
||W^T u||, the scale through exp2 of log2, a loss halved then doubled whose backward forms
2 * scale in float16, the scale applied after the backward pass, a period compared before the
increment, ``finite`` that asks the scaled loss too, ``tree_all`` on traced leaves,
``jnp.log`` of a softmax, ``dot_product_attention`` with values of another width.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round10"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("spectral_norm", "mixed_precision_step", "batched_attention", "loss_and_grads")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round10_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round10_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered >= set(FOCUS) and covered <= problems
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 5 * len(honest) >= 3 * len(ATTACKS)
