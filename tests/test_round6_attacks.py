"""A second held-out-style round (``tests/adversarial/round6/``): styles of the newest problems
that the earlier rounds did not try. Honest ones a student writes from the statement alone
(a ``fori_loop`` with a namedtuple or dict carry, a ``scan`` of no ``xs``, ``lax.rsqrt``
normalising, a ``custom_jvp`` derivative, ``vjp`` of a float16 loss, a policy helper,
``lax.cond`` on a tree, ...) must stay accepted; attacks must not be: loops that do not grow
with K yet reach the answer (squarings, a fixed count beside a decoy, steps unrolled through
``vmap``), decompositions reached by a computed name, a float32 backward dressed as float16
(casts that change nothing, a float32 accumulate, a fixed-point or complex backward), an
overflow imitated by comparing with 65504, and branches or callbacks through side doors.

Each file's docstring names its problem and the verdict a correct judge gives (``Expected:
VERDICT [reason]``), ``Cases: all`` where the examples alone do not show it, and ``Open:`` for a
hole still open (a strict expected failure). They are graded as a student's would be, with the
source gate on. The default run grades the first file of each expected verdict, the newest
problems' files first; ``-m slow`` grades the rest.
"""

from pathlib import Path

import pytest

from judge.run import sandbox
from tests.helpers import (check_corpus_documented, corpus_fields, corpus_files, corpus_params,
                           grade_corpus_file)

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round6"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
#: the order in which the problems' files come, so that the default run's few are the newest's
NEWEST = ["mixed_precision_step", "spectral_norm", "batched_attention", "loss_and_grads"]


def _newest_first(path: Path) -> tuple:
    problem = corpus_fields(path)["Problem"]
    return (NEWEST.index(problem) if problem in NEWEST else len(NEWEST), path.name)


ATTACKS = sorted(corpus_files(FOLDER), key=_newest_first)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round6_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round6_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 20
