"""A seventh held-out-style round (``tests/adversarial/round11/``), written from the statements
alone and aimed at the loop rules (``no_unrolling``'s trip counts, the recurrence over T) on the
problems whose rules read loops: spectral_norm and ema_scan, with one file for per_example_clip.
Honest code: counters of other integer types (``int8`` counting down from K, ``int16``, an
``int64`` with 64-bit types off, ``uint32`` bounds to ``fori_loop``) and counters carried as
floats (up to K, or down from K while above 0.5), tests written ``jnp.less(i, K)``,
``lax.ne(i, K)``, ``i <= K`` from one, ``jnp.greater(T, t)``, ``t <= T - 1``, and tests joining
``i < K`` with a guard on the data (``jnp.logical_and`` with ``isfinite``, ``&`` with a norm
above zero); carries as dicts, NamedTuples, dataclasses registered as pytrees and classes with
their own flatten; ``fori_loop(..., unroll=2)``, ``scan`` over ``xs=None`` with a length and
``unroll=4``, ``scan(..., reverse=True)``, a jitted step called in the body or a jitted
iteration around a jitted body, ``jax.checkpoint`` of the step, ``vmap`` inside the body, the
loop wrapped in a ``lax.cond`` on K > 0 (or on T > 0) outside it; a Python loop over the d
features (per_example_clip).
Cheats beside them: (W W^T)^(K-1) by squarings in a loop whose exponent is a float halved each
trip, a dummy loop of K trips beside a fixed loop of 64 masked steps counted by a float, a
``lax.cond`` that picks 8 fixed trips for K above 8, an ``int8`` bound that overflows, an EMA
by a doubling prefix scan in log2 T trips (alone, or beside a scan reaching the output only
times zero); and ``T > t`` with T a symbol, which JAX itself cannot trace.

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round11"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)
FOCUS = ("spectral_norm", "ema_scan")


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round11_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round11_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 40
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {next(p for p in problems if path.stem.startswith(p + "_")) for path in ATTACKS}
    assert covered >= set(FOCUS) and covered <= problems
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 4 * len(honest) >= 3 * len(ATTACKS)
