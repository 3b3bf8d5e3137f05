"""A held-out-style round against the track, the four newest problems first
(``tests/adversarial/round5/``): about half are honest solutions in the styles students write
(``while_loop``, ``scan`` with a length, ``custom_vjp`` with non-differentiable arguments,
optax-like ``tree_util`` code, ``lax.select``, ``value_and_grad(has_aux=True)``, a Python
branch on a static int, ...) that must stay accepted, half are attacks: right values that break
a stated rule (a float32 or bfloat16 backward hidden in a ``custom_vjp``, an SVD in a backward
rule, callbacks, loops that grow with K) and wrong values the cases must catch (an epsilon in
the norms, an early exit, a NaN-only finiteness check, a scale capped at 32768, a softmax whose
visible keys underflow).

Each file's docstring names its problem and the verdict a correct judge gives (``Expected:
VERDICT [reason]``), ``Cases: all`` where the examples alone do not show it, and ``Open:`` for a
hole still open (a strict expected failure). They are graded as a student's would be, with the
source gate on. The default run grades the first file of each expected verdict, the newest
problems' files first (mixed_precision_step's, then spectral_norm's, ...); ``-m slow`` grades
the rest.
"""

from pathlib import Path

import pytest

from judge.run import sandbox
from tests.helpers import (check_corpus_documented, corpus_fields, corpus_files, corpus_params,
                           grade_corpus_file)

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round5"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
#: the order in which the problems' files come, so that the default run's few are the newest's
NEWEST = ["mixed_precision_step", "spectral_norm", "batched_attention", "loss_and_grads"]


def _newest_first(path: Path) -> tuple:
    problem = corpus_fields(path)["Problem"]
    return (NEWEST.index(problem) if problem in NEWEST else len(NEWEST), path.name)


ATTACKS = sorted(corpus_files(FOLDER), key=_newest_first)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round5_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round5_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 50
