"""Look-alike fingerprints (judge/grade/lookalike.py): a copy renamed, commented, re-spaced and
reordered is found; honest solutions that share the problem's starter code are not."""

import textwrap
from types import SimpleNamespace

from judge.grade import lookalike
from tests.test_batch_class import DISGUISED, HONEST, OTHER, OTHER_TOO

PROBLEM = SimpleNamespace(hints=("Scale x first, then add y, as in `scaled = alpha * x` followed "
                                 "by `scaled + y`.",
                                 "The mask is (x / scale >= qmin) & (x / scale <= qmax): both ends "
                                 "included."))


def fp(source: str):
    return lookalike.fingerprint(source, "axpy", lookalike.starter(PROBLEM))


def test_a_renamed_commented_reordered_copy_has_the_same_fingerprint():
    assert fp(HONEST) is not None and fp(HONEST) == fp(DISGUISED)
    annotated = HONEST.replace("def _scale(values, factor):", "def _scale(values: list, factor: float) -> list:")
    assert fp(annotated) == fp(HONEST)


def test_a_changed_program_is_not_a_look_alike():
    assert fp(HONEST.replace("* factor", "/ factor")) != fp(HONEST)          # another operator
    assert fp(HONEST.replace("jnp.add", "jnp.subtract")) != fp(HONEST)      # another function
    assert fp(HONEST.replace("_scale(x, alpha)", "_scale(alpha, x)")) != fp(HONEST)  # swapped


def test_honest_solutions_sharing_the_starter_are_not_alike():
    assert None not in (fp(OTHER), fp(OTHER_TOO)) and fp(OTHER) != fp(OTHER_TOO)
    # the signature and the hints' code alone are not a student's own: no fingerprint at all,
    # so a class that all wrote the starter's few lines is not one big group of look-alikes
    starter_only = "def axpy(x, y, alpha):\n    scaled = alpha * x\n    return scaled + y\n"
    renamed = "def axpy(x, y, alpha):\n    s = alpha * x\n    return s + y\n"
    assert fp(starter_only) is None and fp(renamed) is None
    mask = textwrap.dedent("""\
        import jax.numpy as jnp
        def axpy(x, scale, qmin, qmax):
            m = (x / scale >= qmin) & (x / scale <= qmax)
            return jnp.where(m, x, 0.0)
        """)
    assert fp(mask) is None
    assert lookalike.similar({"a": fp(starter_only), "b": fp(renamed), "c": fp(HONEST),
                              "d": fp(DISGUISED), "e": fp(OTHER)}) == \
        {"a": [], "b": [], "c": ["d"], "d": ["c"], "e": []}


def test_hostile_sources_get_no_fingerprint_and_raise_nothing():
    assert fp("def axpy(x, y, alpha)\n") is None                       # does not parse
    assert fp("x = " + "(" * 300 + "1" + ")" * 300 + "\n") is None     # too deeply nested to parse
    assert fp("def axpy(x, y, alpha):\n    return " + "-" * 50_000 + "x\n") is None  # or to walk
    assert fp("\x00") is None
    big = "def axpy(x, y, alpha):\n" + "".join(f"    a=x*{i}+y\n" for i in range(3000))
    assert len(big) < lookalike.MAX_SOURCE_BYTES
    assert fp(big) is not None  # past MAX_NODES: not searched for the hints' code, still printed
    huge = "def axpy(x, y, alpha):\n" + "    a = x\n" * (lookalike.MAX_SOURCE_BYTES // 10)
    assert fp(huge) is None  # past MAX_SOURCE_BYTES: not reduced at all


def test_no_two_bundled_submissions_of_a_problem_look_alike():
    """Each problem's known submissions are written to differ, many of them after the hints'
    code: none may be flagged as another's copy."""
    from judge.problem import spec
    from tests.helpers import ROOT

    for path in sorted((ROOT / "problems").glob("*.yaml")):
        problem = spec.load(path)
        shared = lookalike.starter(problem)
        prints = {str(f): lookalike.fingerprint(f.read_bytes(), problem.entry_point, shared)
                  for f in sorted((ROOT / "submissions" / problem.id).rglob("*.py"))}
        assert sum(p is not None for p in prints.values()) >= len(prints) // 2, problem.id
        flagged = {k: v for k, v in lookalike.similar(prints).items() if v}
        assert not flagged, (problem.id, flagged)
