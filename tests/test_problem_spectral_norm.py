"""spectral_norm: the spec loads with its rules, its cases keep the statement's promises (both
norms of every step above 1e-2, entries in [-4, 4], K in [1, 64], W^T u0 away from zero as its
constraint says) and cover what it warns
about (an iteration stopped before it converged, one step, a row or a column), known
submissions get their verdict with the reason of the rule that refuses them (examples only),
and `no_unrolling` keyed on the static int K: a Python loop over range(K) grows with K, a
fori_loop, scan or while_loop does not; its spec errors name the file, line and key."""

import numpy as np
import pytest
import yaml

from tests.helpers import ROOT, grade_known
from judge.errors import SpecError
from judge.problem import spec


@pytest.fixture(scope="module")
def problem():
    return spec.load(ROOT / "problems" / "spectral_norm.yaml")


def _power(W, u, K):
    smallest, v = np.inf, None
    for _ in range(K):
        v = W.T @ u
        smallest = min(smallest, np.linalg.norm(v))
        v = v / np.linalg.norm(v)
        u = W @ v
        smallest = min(smallest, np.linalg.norm(u))
        u = u / np.linalg.norm(u)
    return u, v, smallest


def test_the_interface_others_grade_against(problem):
    assert [(p.name, p.kind, p.traced) for p in problem.parameters] == [
        ("W", "array", True), ("u0", "array", True), ("K", "int", False)]
    assert problem.parameter("K").minimum == 1 and problem.parameter("K").maximum == 64
    # only the vjp: a scalar's vjp is its whole gradient, and a jax.custom_vjp (no forward mode)
    # is as fine as a custom_jvp or a stop_gradient
    assert [(p.name, p.input) for p in problem.probes] == [("vjp", "cotangent")]
    assert {p.wrt for p in problem.probes} == {("W",)}


def test_rules(problem):
    assert 20 <= len(problem.hidden) <= 40
    assert [r["id"] for r in problem.rules] == ["no_unrolling", "required_primitives",
                                                "forbidden_primitives", "no_callbacks"]
    assert problem.rules[0]["parameter"] == "K" and problem.symbolic_dims == ("m", "n")


def test_cases_keep_the_statement(problem):
    seen = {"not_converged": 0, "one_step": 0, "vector": 0, "K64": 0, "last_step_moves_at_64": 0}
    for case in problem.cases:
        W, u0, K = (case.inputs[n] for n in ("W", "u0", "K"))
        m, n = W.shape
        assert u0.shape == (m,) and 1 <= K <= 64 and max(np.abs(W).max(), np.abs(u0).max()) <= 4
        u, v, smallest = _power(W.astype(np.float64), u0.astype(np.float64), K)
        assert smallest > 1e-2, case.label                    # the statement's promise
        assert np.linalg.norm(u0 @ W) >= 0.05 * max(1, np.linalg.norm(u0)), case.label
        sigma = u @ W @ v
        assert abs(case.expected["value"] - sigma) <= 1e-4 * abs(sigma) + 1e-5
        top = np.linalg.svd(W.astype(np.float64), compute_uv=False)[0]
        seen["not_converged"] += bool(top - sigma > 1e-3 * top)
        seen["one_step"] += K == 1
        seen["vector"] += min(m, n) == 1
        seen["K64"] += K == 64
        if K == 64:  # the 64th step still moves sigma well past the tolerance: a loop of K
            fewer = _power(W.astype(np.float64), u0.astype(np.float64), K - 1)  # trips must run them
            seen["last_step_moves_at_64"] += abs(sigma - fewer[0] @ W @ fewer[1]) > 10 * (1e-4 * sigma + 1e-5)
    assert all(seen.values()), seen


def test_cases_that_all_converge_refuse_the_reference(problem):
    """The last trip of the honest loop changes sigma only where the iteration has not
    converged: with only such cases as K = 64 on a clear gap, nothing shows that the loop of K
    trips computes the output, and the reference itself is refused (what ``judge check`` reports
    to an author whose cases miss the unconverged ones)."""
    from dataclasses import replace

    from judge.grade import grading

    converged = tuple(replace(c, visibility="example") for c in problem.cases
                      if c.name.startswith("gen_converged"))
    result = grading.grade(replace(problem, cases=converged), problem.reference, sandbox="none",
                           hints=False)
    assert (result.verdict.name, result.reason) == ("RJ", "unrolled_loop")
    assert "with one trip fewer it is the same on every case" in result.message
    kept = tuple(c for c in problem.cases if c.name.startswith(("gen_converged", "gen_slow_at_64")))
    assert grading.grade(replace(problem, cases=kept), problem.reference, sandbox="none",
                         hints=False).verdict.name == "AC"


@pytest.mark.parametrize("folder, name, verdict, reason, words", [
    ("accepted", "fori_stop_gradient_after", "AC", "ok", ""),
    ("accepted", "while_loop_counter", "AC", "ok", ""),
    ("accepted", "custom_jvp_rule", "AC", "ok", ""),
    ("accepted", "scan_over_steps", "AC", "ok", ""),
    ("rejected", "token_scan_and_python_loop", "RJ", "unrolled_loop", "the traced program grows with K"),
    ("rejected", "python_loop_beside_scan", "RJ", "missing_primitive", "nothing the output needs"),
    ("rejected", "padded_unroll", "RJ", "unrolled_loop", "more than the 600 a loop needs"),
    ("rejected", "loop_except_at_3_and_7", "RJ", "missing_primitive", "scan or while"),
    ("rejected", "svd", "RJ", "forbidden_primitive", "svd"),
    ("rejected", "unroll_when_k_is_small", "RJ", "missing_primitive", "scan or while"),
    ("wrong_answer", "through_the_steps", "WA", "wrong_vjp", ""),
    ("accepted", "custom_vjp_closed_over", "AC", "ok", ""),
])
def test_known_submissions(problem, folder, name, verdict, reason, words):
    result = grade_known(problem, folder, name)
    assert (result.verdict.value, result.reason) == (verdict, reason), result.message
    assert words in result.message


def _with_rule(tmp_path, rule):
    data = yaml.safe_load((ROOT / "problems" / "spectral_norm.yaml").read_text())
    data["rules"][0] = rule
    path = tmp_path / "spectral_norm.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize("rule, key, says", [
    ({"id": "no_unrolling", "parameter": "W"}, "rules[0].parameter", "'W' is not a static int parameter"),
    ({"id": "no_unrolling", "parameter": "K", "dim": "m"}, "rules[0].id", "give `dim`"),
    ({"id": "no_unrolling"}, "rules[0].id", "give `dim`"),
    ({"id": "no_unrolling", "parameter": "K", "sizes": [3, 80]}, "rules[0].sizes",
     "80 is outside K's range 1 to 64"),
])
def test_a_bad_parameter_rule_names_the_file_line_and_key(tmp_path, rule, key, says):
    with pytest.raises(SpecError) as info:
        spec.load(_with_rule(tmp_path, rule))
    text = str(info.value)
    assert f"spectral_norm.yaml: {key} (line " in text and says in text, text


@pytest.mark.parametrize("name, words", [
    ("python_loop_beside_scan", "grows with K"),
    ("unroll_when_k_is_small", "lax.fori_loop, lax.scan or lax.while_loop"),
])
def test_no_unrolling_alone_refuses_a_python_loop_beside_a_scan(tmp_path, name, words):
    """Without required_primitives, the loop rule keyed on K still refuses the steps run in
    Python: beside a scan whose result is thrown away, and without any loop at small K; and
    without its cap on equations (which a Python loop exceeds at the top of K's range), by
    comparing the programs at several values of K."""
    data = yaml.safe_load((ROOT / "problems" / "spectral_norm.yaml").read_text())
    data["rules"] = [r for r in data["rules"] if r["id"] != "required_primitives"]
    for rule in data["rules"]:
        rule.pop("max_equations", None)
    path = tmp_path / "spectral_norm.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    result = grade_known(spec.load(path), "rejected", name)
    assert (result.verdict.value, result.reason) == ("RJ", "unrolled_loop"), result.message
    assert words in result.message


#: An honest solution whose last product is one three-operand einsum: JAX picks the contraction
#: order from the operands' sizes (opt_einsum), which differ between concrete and symbolic
#: shapes. Every case runs the one program the rules read, so the order chosen there is the
#: order every case computes, and the solution is accepted.
EINSUM_SIGMA = '''
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.einsum("i,ij,j->", u, W, v)
'''


def test_a_three_operand_einsum_is_accepted(problem, tmp_path):
    from judge.grade import grading

    path = tmp_path / "einsum_sigma.py"
    path.write_text(EINSUM_SIGMA)
    result = grading.grade(problem, path, examples_only=True, hints=False, source_gate=True)
    assert result.verdict.value == "AC", result.message
