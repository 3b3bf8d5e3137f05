"""A thirteenth held-out-style round (``tests/adversarial/round13/``), written from the statements
alone, on spectral_norm, mixed_precision_step, batched_attention and loss_and_grads.
(Draft docstring: rewritten once the round is graded.)
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
