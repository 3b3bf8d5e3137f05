"""A fifth held-out-style round (``tests/adversarial/round9/``), three quarters of it honest code that
a student writes from the statement alone, over all fifteen problems: a state class registered
as a pytree node, a history of sigma stacked by the scan, matrix-vector products by ``vmap`` of
``jnp.dot``, an iteration on W prescaled by its Frobenius norm, singular vectors with their sign
fixed, a while loop counting from 1 to K inclusive, u and v packed in one carried vector, the K
steps split between two loops, a debug print left in the loop (spectral_norm); a scale updated as ``loss_scale * 2.0 ** delta``
or grown by a floor division of the counter, a step size gated by ``finite`` made
a float, the prediction as an elementwise product and a sum, ``finite`` checked on the float16
gradient, an optax-like scaler NamedTuple (mixed_precision_step); ``lax.batch_matmul``,
``tensordot`` with a ``logsumexp`` that takes ``where``, a flax-style attention dataclass, a
multi-head attention reused with one head, a ``lax.map`` over the query rows
(batched_attention); the gradient of the logits
then the chain rule by hand, ``ravel_pytree``, a registered dataclass pulled back by ``jax.vjp``
(loss_and_grads); ``linearize`` of the gradient and its ``linear_transpose``, ``jacrev`` under
``jvp``, tanh through ``sigmoid``, a loop over the units (hvp_tanh); ``jnp.inner``,
``dot_general`` at the highest precision, a ``relu`` clamp, defensive asserts on shapes (pairwise_sq_dists); a carry scaled
by 1 / (1 - decay), columns split between two carried halves (ema_scan); a rule on the integer
levels with the scale outside it, the scale as a second primal (fake_quant_ste); and more of the
other problems. Plausible wrong answers and cheats aimed at the rules stand beside them: a zero
norm replaced by a divisor of one (right values, a VJP scaled down at an all-zero tree), a
counter not reset when the scale doubles, a key-padding mask taken from the first query, half
steps counted as steps, moments stored bias-corrected, the window tested on x rather than x / s,
the powers left unnormalised until the end, a closed form's sum accumulated by a scan, a
``vmap`` over the points of X of the direct difference.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round9"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round9_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round9_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered == problems
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 3 * len(honest) >= 2 * len(ATTACKS)
