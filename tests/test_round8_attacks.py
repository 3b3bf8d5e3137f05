"""A fourth held-out-style round (``tests/adversarial/round8/``): styles that no earlier corpus
tried of spectral_norm and mixed_precision_step, and of adamw_step, warmup_cosine,
clip_by_global_norm, per_example_clip, masked_mean_xent, sign_ste and grad_reversal. Honest ones
a student writes from the statement alone (the Adam paper's folded step size, powers by a
``fori_loop``, a ``lax.while_loop`` that finds the schedule's phase, a norm bounded below by
``max_norm^2`` or scaled by the largest entry, ``lax.pmean`` under a named vmap, a pullback mapped
over diag(r), ``log_softmax`` with ``where``, valid tokens moved to the front by ``argsort``,
``heaviside``, a ``custom_vjp`` inside a ``custom_jvp``, ``defvjp`` with ``optimize_remat`` or
``symbolic_zeros``, a loop of half steps, a scan unrolled by 4, a forward pass under
``jax.checkpoint``, a ``register_dataclass`` state in JAX's decorator form) must stay accepted;
attacks must not be: the step number made a Python int, the layer applied to something other than
x, lam applied after a negating rule, a Jacobian times the cotangent, the scaling in a second
layer's forward function, Gram powers by ``associative_scan``. Some honest-looking styles are
wrong answers on purpose (a first-step shortcut that assumes zero moments, an angle as the
difference of two large angles, phases blended by products with indicators, leaf norms
differentiated at a zero leaf, forward-mode autodiff in float16).

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round8"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round8_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round8_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.name.split("_")[0] for p in ATTACKS}
    assert {"adamw", "warmup", "clip", "per", "masked", "sign", "grad", "spectral", "mixed"} <= problems
