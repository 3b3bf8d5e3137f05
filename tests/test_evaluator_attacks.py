"""Attacks on the worker's evaluation of traced programs (``judge.worker.evaluate``): exact
operations computed in NumPy, the rest bound by JAX. A submission wins if a program gets a
verdict under the NumPy evaluator that XLA's results would not give it (``JUDGE_EVALUATOR=jax``),
or if the evaluation runs its code on the case's concrete values.

The submissions are in ``tests/adversarial/evaluator/``; each docstring names its problem, what
it tries and the verdict a correct judge gives under both evaluators (``Expected:``). They are
graded with the source gate on, as a student's would be (everything here passes the gate). A
hole still open under the NumPy evaluator is named by an ``Open:`` line: that grade is a strict
expected failure, so the test flips when the hole is closed. The default run grades each file
under the NumPy evaluator; the ``slow`` group grades it under JAX's as well.

Below them: the same holes at the level of the evaluator (no grading), the watch on NumPy's
attributes (``judge.worker.custody.watched_modules``), and what the evaluator keeps alive.
"""

import re
import tracemalloc
import types
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.run import sandbox
from judge.worker import custody
from judge.worker.evaluate import Evaluator
from tests.helpers import ROOT, sampled

ATTACKS = sorted((Path(__file__).resolve().parent / "adversarial" / "evaluator").glob("*.py"))
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
EVALUATORS = ("numpy", "jax")

_FIELD = re.compile(r"^(Problem|Expected|Open):\s*(.+?)\s*$", re.M)


def _fields(path: Path) -> dict:
    return dict(_FIELD.findall(path.read_text()))


def _params():
    values = []
    for path in ATTACKS:
        open_hole = _fields(path).get("Open")
        for evaluator in EVALUATORS:
            marks = [pytest.mark.xfail(strict=True, reason=open_hole)] \
                if open_hole and evaluator == "numpy" else []
            values.append(pytest.param(path, evaluator, marks=marks, id=f"{path.stem}-{evaluator}"))
    return sampled(values, key=lambda v: v[0].stem)


@pytest.mark.parametrize("path, evaluator", _params())
def test_attack_gets_its_verdict_under_both_evaluators(path, evaluator, monkeypatch):
    fields = _fields(path)
    verdict, reason = fields["Expected"].split()[:2]
    problem = spec.load(ROOT / "problems" / f"{fields['Problem']}.yaml")
    monkeypatch.setenv("JUDGE_EVALUATOR", evaluator)
    result = grading.grade(problem, path, examples_only=True, sandbox=SANDBOX, source_gate=True)
    assert (result.verdict, result.reason) == (Verdict(verdict), reason), result.message


def test_corpus_is_documented():
    assert ATTACKS
    for path in ATTACKS:
        fields = _fields(path)
        assert {"Problem", "Expected"} <= set(fields), path.name
        assert (ROOT / "problems" / f"{fields['Problem']}.yaml").is_file(), path.name


# --- the evaluator itself: NumPy's results against XLA's, bit for bit ---------------------------

_NUMPY, _JAX = Evaluator(jax, uses_numpy=True), Evaluator(jax, uses_numpy=False)
_NAN = np.float32(np.nan)                      # 0x7fc00000
_NEGATIVE_NAN = -_NAN                          # 0xffc00000, the default NaN of 0 * inf
_PAYLOAD_NAN = np.uint32(0x7FC00001).view(np.float32)
_ROW = np.array([0.0, -0.0, 1.0, -2.5, np.inf], dtype=np.float32)


def _bits(function, *args) -> tuple[bytes, bytes]:
    closed = jax.make_jaxpr(function)(*args)
    got = [np.asarray(v).tobytes() for v in _NUMPY.run(closed.jaxpr, closed.consts, *args)]
    want = [np.asarray(v).tobytes() for v in _JAX.run(closed.jaxpr, closed.consts, *args)]
    return got, want




@pytest.mark.parametrize("function, args", [
    pytest.param(lambda x: lax.max(np.float32(0), x), (np.full(3, _NEGATIVE_NAN),),
                 id="max(0, -nan)"),
    pytest.param(lambda x, y: lax.max(x, y), (_ROW, _NEGATIVE_NAN), id="max(x, -nan)"),
    pytest.param(lambda x, y: lax.min(x, y), (_ROW, _NAN), id="min(x, nan)"),
    pytest.param(lambda x, lo, hi: lax.clamp(lo, x, hi),
                 (np.full(3, _NEGATIVE_NAN), np.float32(1e38), np.float32(0.1)),
                 id="clamp(1e38, -nan, 0.1)"),
    pytest.param(lambda x, y: lax.add(x, y), (np.full(3, _NEGATIVE_NAN), _NAN),
                 id="add(-nan, scalar nan)"),
    pytest.param(lambda x, y: lax.mul(x, y), (np.full(3, _PAYLOAD_NAN), _NEGATIVE_NAN),
                 id="mul(payload nan, scalar -nan)"),
    pytest.param(lambda x, y: lax.add(x, y), (np.full(3, _NEGATIVE_NAN), np.full(3, _NAN)),
                 id="add(-nan, nan) of two arrays"),
    pytest.param(lambda x: x * np.float32(0) * np.float32(np.inf), (_ROW,), id="0*inf"),
    pytest.param(lambda x: lax.sqrt(-x - 1), (_ROW,), id="sqrt(negative)"),
    pytest.param(lambda x, y: lax.add(x, y), (np.full(3, _PAYLOAD_NAN), np.float32(1)),
                 id="add(payload nan, 1)"),
])
def test_nan_bits_are_xlas(function, args):
    """A NaN's sign reaches a value through a bit-cast (``nan_sign_of_max.py``)."""
    got, want = _bits(function, *args)
    assert got == want


def test_a_replaced_numpy_function_is_not_what_the_evaluator_calls(monkeypatch):
    """Behind the watch on NumPy (``custody.watched_modules``), the evaluator should hold its own
    references, as it does for add, mul and the comparisons."""
    calls = []
    original = np.maximum

    def spy(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(np, "maximum", spy)
    closed = jax.make_jaxpr(lambda x: lax.max(x, np.float32(0)))(_ROW)
    _NUMPY.run(closed.jaxpr, closed.consts, _ROW)
    assert calls == []


# --- the watch on NumPy's attributes -----------------------------------------------------------

def _module():
    module = types.ModuleType("lib")
    module.f, module.g = (lambda: 1), (lambda: 2)
    return module


def test_the_watch_sees_a_replaced_function():
    module = _module()
    changed = custody.watched_modules(module)
    assert changed() == []
    module.f = lambda: 3
    assert changed() == ["lib.f"]


def test_the_watch_sees_a_function_replaced_and_put_back():
    module = _module()
    original = module.f
    changed = custody.watched_modules(module)
    module.f = lambda: 3
    module.f = original
    assert changed() == ["lib.f"]


def test_the_watch_sees_a_deleted_function_and_its_own_removal():
    module = _module()
    changed = custody.watched_modules(module)
    del module.g
    assert changed() == ["lib.g"]
    module.__class__ = types.ModuleType
    assert "lib (watch removed)" in changed()


def test_the_watch_leaves_additions_and_rewrites_of_the_same_object_alone():
    """A submodule imported lazily adds an attribute; the import system may set one again."""
    module = _module()
    changed = custody.watched_modules(module)
    module.h = object()
    module.f = module.f
    assert changed() == []


# --- what the evaluator keeps alive ------------------------------------------------------------

def test_the_evaluator_drops_values_after_their_last_use():
    """A chain of six 4 MiB arrays, each needed only by the next: evaluated one operation at a
    time, three are alive at once at most, plus NumPy's temporaries. (Graded, a chain of five
    384 MiB arrays peaked at 3031 MiB under the NumPy evaluator and 675 MiB under JAX's.)"""
    size = 2 ** 20

    def chain(x):
        acc = jnp.broadcast_to(x[:1], (size,))
        for _ in range(5):
            acc = acc * np.float32(0.5)
        return acc[:1]

    x = np.ones(3, np.float32)
    closed = jax.make_jaxpr(chain)(x)
    tracemalloc.start()
    try:
        _NUMPY.run(closed.jaxpr, closed.consts, x)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4.5 * 4 * size, f"peak {peak / 2**20:.1f} MiB"
