"""A third held-out-style round (``tests/adversarial/round7/``): styles of the problems the second
round left aside (batched_attention, loss_and_grads, fake_quant_ste, hvp_tanh, pairwise_sq_dists,
ema_scan) that no earlier corpus tried. Honest ones a student writes from the statement alone
(``vmap`` with moved axes, ``jnp.vectorize`` with a signature, ``lax.map`` in batches, a
``custom_jvp`` logsumexp, a loss evaluated and left unused, a quantizer with symbolic zeros or
mapped over scalars, the Hessian of the m units only, a reverse scan over reversed rows, a scan per
column, a ``jax.debug.print`` left in a mapped function or a scan's step) must stay accepted;
attacks must not be: a second forward pass as rank-one terms over features padded to a fixed count,
scores summed one feature at a time, the cotangent scaled outside a rule, a backward rule that
ignores its cotangent, a callback in a backward rule or a mapped step, an EMA whose scan carries
only the decay power, an identity rule computed as ``sign(v) * |v|`` with the values rounded
outside it by a cast, by flags counted against each level, by a straight-through term or in a
``where`` beside its output (the values must reach the rule's output along a path its pullback
follows: ``judge.worker.smooth``). A few honest-looking styles are wrong answers on purpose (a softmax
renormalized after masking underflows, a finite difference).

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round7"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round7_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round7_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 20
