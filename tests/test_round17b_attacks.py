"""Round 17b (``tests/adversarial/round17b/``): the values moved with the custom_vjp function's
output, the float16 values kept straight, and lookups at data indices.

Around ``fake_quant_ste``'s values: an identity (or ``sin``) custom_vjp function with the honest
clipped backward rule and the values the quantizer of ``x`` outside it plus a term of the output
that is zero near every case and moves only far from it, past a bound read from ``x``
(``out - clip(out, -b, b)``, ``relu(out - b)``, ``where(|out| > b, out, q(x))``, a choice by
``isfinite(exp(out - b))``): each moved at the measurement's far moves, so all four were
accepted until the output was also shifted a little each way, kept, and the values had to move
there too (``judge.worker.shift.near``); and a term read off a lattice through a rounding.
Beside them, honest clips far outside the range, ``nan_to_num`` and ``relu(out) - relu(-out)``
after the function. Around ``mixed_precision_step``: float32 backward passes of quarter squares
whose squares come from the tent map on the value's fixed-point int32, from a one-hot row times a
constant table, from ``jnp.searchsorted`` and a ``take``, or from ``lax.switch`` on a data index
over constant pieces, all refused; honest steps that unscale inside ``lax.cond`` with a
``lax.switch`` on the scale's phase, and that fold the finiteness flags in a ``fori_loop``.

Each file's docstring names its problem and the verdict a correct judge gives (``Expected:
VERDICT [reason]``), ``Cases: all``, and ``Open:`` for a hole still open (a strict expected
failure). They are graded as a student's would be, with the source gate on. The default run
grades the first file of each expected verdict; ``-m slow`` grades the rest.
"""

from pathlib import Path

import pytest

from judge.run import sandbox
from tests.helpers import check_corpus_documented, corpus_files, corpus_params, grade_corpus_file

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round17b"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("fake_quant_ste", "mixed_precision_step")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round17b_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round17b_is_documented():
    check_corpus_documented(ATTACKS)
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {max((p for p in problems if path.stem.startswith(p + "_")), key=len)
               for path in ATTACKS}
    assert covered == set(FOCUS)
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 3 * len(honest) >= len(ATTACKS)
