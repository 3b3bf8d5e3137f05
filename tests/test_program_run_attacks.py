"""Held-out attacks on "the program judged is the program run", and honest files it must keep
accepting (``tests/adversarial/program_run/``, the files with a ``Problem:`` line; the others
are ``tests/test_program_run.py``'s).

Each file's docstring names its problem, what it tries and the verdict a correct judge gives
(``Expected: VERDICT [reason]``). They are graded with the source gate on, as a student's would
be (everything here passes the gate), on the examples, or on every case where the docstring says
``Cases: all`` (Python state carried from one traced program to the next needs more programs
than the examples have). A hole still open is named by an ``Open:`` line: that grade is a strict
expected failure, so the test flips when the hole is closed. The default run grades the first
file of each expected verdict; ``-m slow`` grades the rest.

Below them, at the level of the case runner: where a case is not run from a program traced with
symbolic dims, the program whose summary the rules read is still another trace than the one
whose values are graded.
"""

from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

from judge.run import sandbox
from judge.worker import protocol
from judge.worker.case_runner import CaseRunner
from tests.helpers import check_corpus_documented, corpus_files, corpus_params, grade_corpus_file

FOLDER = Path(__file__).resolve().parent / "adversarial" / "program_run"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_attack_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_corpus_is_documented():
    check_corpus_documented(ATTACKS)


# --- a case traced at its own shapes: the values' program and the rules' program ---------------

def test_without_symbolic_dims_the_rules_read_the_program_whose_values_are_graded():
    """A case of a problem without symbolic dims, with a probe: the entry is traced for the
    output's structure and again with the probe's derivative traced in, so Python state can
    tell the calls apart (here a cumsum on the first call only). Whatever the calls do, the
    values graded are those of the program whose summary the rules read."""
    calls = []

    def entry(x):
        calls.append(1)
        if len(calls) == 1:
            return jnp.cumsum(x)
        return x

    request = {"parameters": [{"name": "x", "traced": True}], "submission": "/none.py",
               "structure": True, "probes": {"wrt": "x", "names": ["vjp"]}}
    runner = CaseRunner(entry, request)
    x = np.arange(1.0, 4.0, dtype=np.float32)
    result = runner.run({"x": x}, {"cotangent": np.ones(3, np.float32)})
    assert result["error"] is None, result["error"]
    output = np.asarray(protocol.decode_value(result["output"]))
    summed = "cumsum" in result["program"]["primitives"]
    assert np.array_equal(output, np.cumsum(x) if summed else x), (
        f"the summary the rules read ({sorted(result['program']['primitives'])}) is not the "
        f"program whose output was graded ({output})")
