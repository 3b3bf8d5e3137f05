"""The loop rules' messages name the line of the submission that holds the loop: the worker
reads it from the loop equation's traceback (``judge.worker.program``: each listed loop's
``line``, the innermost frame in the submission's file, so the ``fori_loop``, ``scan`` or
``while_loop`` call) and sends it as plain data; for a program that grows with a dim or a
parameter, the line whose equations grow the most (``busiest``); for a loop written out, the
line that picks the most rows at fixed indices (``judge.worker.picks``). Graded here as a student's
submission would be, on the examples."""

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from judge.grade import grading
from judge.problem import spec
from judge.rules import last_trip, loop_trips
from judge.run.summary import Loop
from judge.run.summary import program as decode
from judge.worker import program, symbolic
from tests.helpers import ROOT


def _line_of(fn, marker: str) -> int:
    """The line of this file that holds ``marker``, inside ``fn``'s source."""
    lines, start = __import__("inspect").getsourcelines(fn)
    return start + next(k for k, text in enumerate(lines) if marker in text)


def _fixed(x):
    rows = jnp.arange(x.shape[0])[:, None]

    def step(i, out):
        return jnp.where(rows == i, jnp.take(x, i, axis=0, mode="clip")[None], out)
    return lax.fori_loop(0, 8, step, jnp.zeros_like(x))  # the loop


def _nested(x):
    def outer(c, row):
        inner = lax.fori_loop(0, 3, lambda i, a: jnp.tanh(a + row), c)  # the inner loop
        return inner, inner
    return lax.scan(outer, x[0], x)[1]  # the outer loop


def _summary(fn):
    made = symbolic.dims(jax, {"b": (1, 8)})
    x = jax.ShapeDtypeStruct(symbolic.shape(("b", 3), made), jnp.float32)
    return decode(program.summarize(jax.make_jaxpr(fn)(x), symbolic=True, source=__file__), "program")


def test_each_listed_loop_names_the_line_of_its_call():
    (loop,) = _summary(_fixed).loops
    assert loop.line == _line_of(_fixed, "# the loop")
    outer, inner = _summary(_nested).loops
    assert (outer.line, inner.line) == (_line_of(_nested, "# the outer loop"),
                                        _line_of(_nested, "# the inner loop"))


def test_a_loop_of_no_line_of_the_submission_names_none():
    made = symbolic.dims(jax, {"b": (1, 8)})
    x = jax.ShapeDtypeStruct(symbolic.shape(("b", 3), made), jnp.float32)
    summary = program.summarize(jax.make_jaxpr(_fixed)(x), symbolic=True, source="/elsewhere.py")
    assert "line" not in summary["loops"][0]
    assert decode(summary, "program").loops[0].line is None


def test_the_loop_rules_name_a_loop_s_line_where_known():
    rule = {"id": "no_unrolling", "parameter": "K"}
    from judge.rules import no_unrolling
    from tests.test_loop_trips import _at
    from dataclasses import replace

    def at(k, line):
        found = _at(k, 7)
        loops = tuple(replace(lp, line=line) for lp in found.program.loops)
        return replace(found, program=replace(found.program, loops=loops))
    fixed = no_unrolling.check_traces(rule, [at(3, 12), at(7, 12), at(64, 12)], None)
    assert "the loop that does the most work per trip (the scan at line 12) runs" in fixed.message
    unknown = no_unrolling.check_traces(rule, [at(3, None), at(7, None), at(64, None)], None)
    assert "per trip runs" in unknown.message and "line" not in unknown.message
    assert loop_trips.named(Loop(primitive="while", length="8", recurrent=False, line=4)) == \
        " (the while at line 4)"
    assert "the loop of K trips at line 9 does not compute" in last_trip.breach(rule, 3, 0, line=9).message
    assert "the loop of K trips does not compute" in last_trip.breach(rule, 3, 0).message


@pytest.mark.parametrize("problem, path, words", [
    # a fori_loop of 8 trips over the examples (judge.rules.fixed_loops)
    ("batched_attention", "tests/adversarial/round12/batched_attention_fori_loop_of_eight_examples_clamped.py",
     "a scan of a fixed 8 trips at line 29 takes one index of b"),
    # log2(K) trips (judge.rules.loop_trips)
    ("spectral_norm", "tests/adversarial/round5/spectral_norm_log2_trips.py",
     "the loop that does the most work per trip (the scan at line 26) runs"),
    # a fixed loop of the steps in each of K trips
    ("spectral_norm", "submissions/spectral_norm/rejected/fixed_loop_inside_k_loop.py",
     "(the scan at line 20) runs"),
    # a loop of K trips whose share of the output rounds away (judge.rules.last_trip)
    ("spectral_norm", "tests/adversarial/round5/spectral_norm_last_trip_decoy_scaled_away.py",
     "the loop of K trips at line 38 does not compute the output"),
    # a loop over the rows written out: four chunks taken at fixed indices (judge.worker.picks)
    ("per_example_clip", "tests/adversarial/round13b/per_example_clip_four_chunks_of_sixteen_rows.py",
     "takes 4 different rows or chunks of n at indices written in it (x[3], where(rows == 3, ...), "
     "a take of fixed indices; most at line 25)"),
    # a Python loop over K: the line whose equations grow
    ("spectral_norm", "submissions/spectral_norm/rejected/python_loop_with_token_while.py",
     "; line 14 makes "),
])
def test_a_refused_loop_s_message_names_its_line(problem, path, words):
    result = grading.grade(spec.load(problem), ROOT / path, examples_only=True, hints=False,
                           use_cache=True)
    assert result.reason == "unrolled_loop" and words in result.message, result.message
