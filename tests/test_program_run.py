"""The program judged is the program run: where a problem's rules read a program traced with
its ``symbolic_dims`` as symbols, every case's output and probe values come from running that
very program at the case's dims (``judge.worker.symbolic.instantiate``, the case runner's
``symbolic`` cases), and the submission's Python never runs at a case's concrete shapes. The
twins that told the symbolic trace from the run are graded on what they run; honest code JAX
specializes at concrete sizes is accepted (``tests/adversarial/program_run/``)."""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.worker import protocol, symbolic
from judge.worker.case_runner import CaseRunner

ROOT = Path(__file__).resolve().parent.parent
FILES = Path(__file__).resolve().parent / "adversarial" / "program_run"


# --- one program, made concrete at each case's dims -------------------------------------------

def _shift(X, Y):
    c = X[0]
    return jnp.sum((X - c) ** 2, 1)[:, None] + jnp.sum((Y - c) ** 2, 1)[None, :] - 2 * (X - c) @ (Y - c).T


def _einsum3(X, Y):
    return jnp.einsum("nd,d,md->nm", X, jnp.full((X.shape[1],), 2.0, X.dtype), Y) + jnp.mean(X)


def _scan_custom_vjp(X, Y):
    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(lambda x: (jnp.sin(x), jnp.cos(x)), lambda c, g: (g * c,))
    rows = jax.lax.scan(lambda carry, x: (carry + f(x).sum(), carry), 0.0, X)[1]
    grads = jax.vmap(jax.grad(lambda x: jnp.tanh(x).sum()))(X)
    return rows[:, None] + grads.sum(1)[:, None] + Y.sum(1)[None, :]


def _pmean(X, Y):
    centred = jax.vmap(lambda x: x - jax.lax.pmean(x, "i"), axis_name="i")(X)
    return centred @ Y.T


def _fori_unrolled(X, Y):
    def body(i, carry):
        return carry.at[i].set(carry[i - 1] * 0.5 + X[i].sum())
    rows = jax.lax.fori_loop(1, X.shape[0], body, jnp.zeros(X.shape[0]), unroll=2)
    return rows[:, None] + Y.sum(1)[None, :]


PROGRAMS = {"shift_by_first_point": _shift, "three_operand_einsum": _einsum3,
            "scan_custom_vjp_vmap_grad": _scan_custom_vjp, "vmap_axis_name_pmean": _pmean,
            "fori_loop_unroll": _fori_unrolled}
SHAPES = [(3, 4, 2), (5, 2, 3), (1, 1, 1), (7, 1, 5), (1, 6, 4)]


def _request(probes=("vjp", "jvp")):
    return {"parameters": [{"name": "X", "traced": True}, {"name": "Y", "traced": True}],
            "submission": "/none.py", "structure": True,
            "probes": {"wrt": ["X", "Y"], "names": list(probes)}}


SPEC = {"key": "k", "shapes": {"X": ["n", "d"], "Y": ["m", "d"]},
        "symbols": {"n": [1, 64], "m": [1, 64], "d": [1, 64]}}


def _case(n, m, d, seed=0):
    rng = np.random.default_rng(seed)
    args = {"X": rng.standard_normal((n, d)).astype(np.float32),
            "Y": rng.standard_normal((m, d)).astype(np.float32)}
    probe_args = {"cotangent": rng.standard_normal((n, m)).astype(np.float32),
                  "tangent": {"X": rng.standard_normal((n, d)).astype(np.float32),
                              "Y": rng.standard_normal((m, d)).astype(np.float32)}}
    return args, probe_args


class _Seen:
    """An entry function that records the extents of each call's first argument."""

    def __init__(self, fn):
        self.fn, self.shapes = fn, []

    def __call__(self, X, Y):
        self.shapes.append(tuple(X.shape))
        return self.fn(X, Y)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_case_runs_the_one_program_traced_with_symbols(name):
    """The values at each case's dims (extent 1 included) are what JAX computes for the function
    at those shapes, and the function was only ever called with symbolic extents, however many
    cases ran."""
    fn = _Seen(PROGRAMS[name])
    # a custom_vjp has no forward mode; a fori_loop over a symbolic extent is a while loop,
    # which has no reverse mode (ema_scan, which admits one, has no probes)
    probes = {"scan_custom_vjp_vmap_grad": ("vjp",), "fori_loop_unroll": ("jvp",)}.get(name, ("vjp", "jvp"))
    runner = CaseRunner(fn, _request(probes))
    for n, m, d in SHAPES:
        args, probe_args = _case(n, m, d)
        result = runner.run(args, probe_args, symbolic_spec=SPEC)
        assert result["error"] is None, result["error"]
        assert result["program"]["shapes"], "the summary the rules read is the symbolic one"
        out, pull = jax.vjp(PROGRAMS[name], args["X"], args["Y"])
        want_vjp = pull(probe_args["cotangent"]) if "vjp" in probes else None
        want_jvp = None if "custom_vjp" in name else jax.jvp(PROGRAMS[name], (args["X"], args["Y"]),
                           (probe_args["tangent"]["X"], probe_args["tangent"]["Y"]))[1]
        np.testing.assert_allclose(protocol.decode_value(result["output"]), out, rtol=2e-5, atol=2e-5)
        if "vjp" in probes:
            got_vjp = protocol.decode_value(result["probes"]["vjp"])
            for key, want in zip(("X", "Y"), want_vjp):
                np.testing.assert_allclose(got_vjp[key], want, rtol=2e-5, atol=2e-5)
        if "jvp" in probes:
            np.testing.assert_allclose(protocol.decode_value(result["probes"]["jvp"]), want_jvp,
                                       rtol=2e-5, atol=2e-5)
    assert fn.shapes and all(not isinstance(e, int) for shape in fn.shapes for e in shape), fn.shapes
    assert len(fn.shapes) <= 3  # the output's trace, then one with the probes' derivatives


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_trace_with_symbols_beside_the_cases_is_the_program_a_case_runs(name):
    """The worker that traces the rules' programs without running them (no case's values, the
    judge's derivatives named by ``derivative``) traces a program with symbolic dims as a
    case's worker traces the one its cases run, the derivatives' directions as inputs: the two
    summaries are the same, so a rule may compare a case's program with traces made there."""
    probes = {"scan_custom_vjp_vmap_grad": ("vjp",), "fori_loop_unroll": ("jvp",)}.get(name, ("vjp", "jvp"))
    args, probe_args = _case(3, 2, 2)
    own = CaseRunner(PROGRAMS[name], _request(probes)).run(args, probe_args, symbolic_spec=SPEC)["program"]
    tracing = CaseRunner(PROGRAMS[name], {**_request(probes), "probes": None,
                                          "derivative": {"wrt": ["X", "Y"], "names": list(probes)}})
    shapes = {"X": {"shape": ["n", "d"], "dtype": "float32"}, "Y": {"shape": ["m", "d"], "dtype": "float32"}}
    result = tracing.abstract({}, shapes, SPEC["symbols"])
    assert result["error"] is None, result["error"]
    assert result["program"] == own
    # traced with the directions all ones instead (``program``), it has more equations: those
    # that make the ones
    assert tracing.program({}, shapes, SPEC["symbols"])["equations"] > own["equations"]


def test_a_second_key_is_traced_once_more():
    fn = _Seen(_shift)
    runner = CaseRunner(fn, _request(("vjp",)))
    for key in ("a", "a", "b", "a", "b"):
        args, probe_args = _case(3, 2, 2)
        assert runner.run(args, probe_args, symbolic_spec={**SPEC, "key": key})["error"] is None
    assert len(fn.shapes) == 4  # twice per key


def test_a_dim_read_as_a_number_is_reported_as_such_for_every_case():
    def loop(X, Y):
        return jnp.stack([jnp.sum(X[i]) for i in range(X.shape[0])])[:, None] + Y.sum(1)[None, :]

    runner = CaseRunner(loop, _request(("vjp",)))
    for n in (2, 3):
        result = runner.run(*_case(n, 2, 2), symbolic_spec=SPEC)
        assert result["error"]["kind"] == "symbolic" and result["output"] is None


def test_a_probe_without_a_derivative_is_reported_and_the_rest_kept():
    @jax.custom_vjp
    def f(X, Y):
        return jnp.sin(X) @ Y.T

    f.defvjp(lambda X, Y: (f(X, Y), (X, Y)), lambda r, g: (g @ r[1] * jnp.cos(r[0]), g.T @ jnp.sin(r[0])))
    result = CaseRunner(f, _request()).run(*_case(3, 2, 2), symbolic_spec=SPEC)
    assert result["error"] is None and set(result["probes"]["errors"]) == {"jvp"}
    assert set(protocol.decode_value(result["probes"]["vjp"])) == {"X", "Y"}


def test_a_cotangent_that_does_not_fit_the_output_is_the_probe_s_error_not_the_case_s():
    runner = CaseRunner(lambda X, Y: (X @ Y.T).T, _request(("vjp",)))
    result = runner.run(*_case(3, 2, 2), symbolic_spec=SPEC)
    assert result["error"] is None and result["output"] is not None
    assert "vjp" in result["probes"]["errors"]


def test_instantiate_binds_every_extent_and_dim_value():
    made = symbolic.dims(jax, {"n": (1, 8), "d": (1, 8)})
    closed = jax.make_jaxpr(lambda X: jnp.mean(X, axis=0) + jnp.arange(X.shape[0]).sum())(
        jax.ShapeDtypeStruct((made["n"], made["d"]), jnp.float32))
    concrete = symbolic.instantiate(closed, {"n": 4, "d": 3})
    assert [tuple(v.aval.shape) for v in concrete.jaxpr.invars] == [(4, 3)]
    assert all(e.primitive.name != "dim_as_value" for e in concrete.jaxpr.eqns)
    X = np.arange(12, dtype=np.float32).reshape(4, 3)
    got = jax.core.eval_jaxpr(concrete.jaxpr, concrete.consts, X)[0]
    np.testing.assert_allclose(got, X.mean(0) + 6.0)


# --- a tree's leaves carry their dims as symbols ---------------------------------------------

TREE_SPEC = {"key": "t", "shapes": {"params": {"w": ["d", "k"], "b": ["k"]}, "x": ["n", "d"]},
             "symbols": {"n": [1, 32], "d": [1, 16], "k": [1, 16]}}


def _softmax_loss(params, x):
    return jnp.mean(jax.nn.logsumexp(x @ params["w"] + params["b"], axis=1))


def test_a_tree_s_leaves_are_traced_with_their_dims_as_symbols():
    """The tree's leaves take the request's nested extents: the function only ever sees symbolic
    extents, one program serves cases of every (n, d, k), and each case's output and gradient
    with respect to the tree are what JAX computes at its shapes."""
    seen = []

    def entry(params, x):
        seen.append((tuple(params["w"].shape), tuple(params["b"].shape), tuple(x.shape)))
        return _softmax_loss(params, x)

    request = {"parameters": [{"name": "params", "traced": True}, {"name": "x", "traced": True}],
               "submission": "/none.py", "structure": True, "probes": {"wrt": "params", "names": ["vjp"]}}
    runner = CaseRunner(entry, request)
    rng = np.random.default_rng(0)
    for n, d, k in [(3, 4, 2), (1, 1, 1), (5, 2, 7)]:
        params = {"w": rng.standard_normal((d, k)).astype(np.float32),
                  "b": rng.standard_normal(k).astype(np.float32)}
        x = rng.standard_normal((n, d)).astype(np.float32)
        result = runner.run({"params": params, "x": x}, {"cotangent": np.float32(1.5)},
                            symbolic_spec=TREE_SPEC)
        assert result["error"] is None, result["error"]
        value, grads = jax.value_and_grad(_softmax_loss)(params, x)
        np.testing.assert_allclose(protocol.decode_value(result["output"]), value, rtol=2e-5)
        got = protocol.decode_value(result["probes"]["vjp"])
        for key in ("w", "b"):
            np.testing.assert_allclose(got[key], 1.5 * grads[key], rtol=2e-5, atol=2e-6)
    assert seen and all(not isinstance(e, int) for shapes in seen for shape in shapes for e in shape), seen
    assert len(seen) <= 3  # the output's trace, then one with the derivative


@pytest.mark.parametrize("structure", [False, True])
def test_a_tree_traced_without_running_takes_its_leaves_extents_and_dtypes(structure):
    """A trace the rules ask for (the corners, a rule's trace beside a case) gives a tree's
    leaves as extents and dtypes nested as the tree: no value of it travels (with
    ``structure``, traced as a case's program is)."""
    request = {"parameters": [{"name": "params", "traced": True}, {"name": "x", "traced": True}],
               "submission": "/none.py", "structure": structure}
    shapes = {"params": {"shape": {"w": ["d", "k"], "b": ["k"]}, "dtype": {"w": "float32", "b": "float32"}},
              "x": {"shape": ["n", "d"], "dtype": "float32"}}
    result = CaseRunner(_softmax_loss, request).abstract({}, shapes, TREE_SPEC["symbols"])
    assert result["error"] is None, result["error"]
    extents = {e for value in result["program"]["shapes"] for e in value["shape"]}
    assert {"n", "k"} <= extents, extents


def test_a_case_whose_tree_does_not_fit_the_traced_program_is_refused():
    """Leaves of other keys, or a leaf whose extent disagrees with a dim the others bind, are not
    an instance of the program traced for the key: the case fails, nothing runs at its shapes."""
    assert symbolic.case_dims(TREE_SPEC["shapes"], {"params": {"w": (2, 3), "b": (3,)}, "x": (4, 2)}) == \
        {"d": 2, "k": 3, "n": 4}
    for params in ({"w": (2, 3), "b": (4,)}, {"w": (2, 3)}, {"w": (2, 3), "b": (3,), "c": (1,)},
                   {"w": {"v": (2, 3)}, "b": (3,)}):
        assert symbolic.case_dims(TREE_SPEC["shapes"], {"params": params, "x": (4, 2)}) is None, params
    assert symbolic.shapes_of({"a": {"b": np.zeros((2, 1))}, "c": np.float32(1)}) == {"a": {"b": (2, 1)}, "c": ()}


def test_a_tree_problem_sends_its_leaves_extents_with_the_dims_named():
    """loss_and_grads' leaves name d and k: the request gives the tree's extents nested as the
    tree, and one key serves cases of every extent; mixed_precision_step's name d and h."""
    from judge.grade import plan

    problem = spec.load(ROOT / "problems" / "loss_and_grads.yaml")
    specs = [plan.case_plan(problem, c).symbolic for c in problem.cases]
    assert specs[0]["shapes"] == {"x": ["n", "d"], "y": ["n"], "params": {"w": ["d", "k"], "b": ["k"]}}
    assert specs[0]["symbols"] == {"d": [1, 16], "k": [1, 16], "n": [1, 32]}
    assert len({s["key"] for s in specs}) == 1
    problem = spec.load(ROOT / "problems" / "mixed_precision_step.yaml")
    made = plan.case_plan(problem, problem.cases[0]).symbolic
    assert made["shapes"]["params"] == {"dense": {"w": ["d", "h"], "b": ["h"]}, "out": {"w": ["h"]}}


# --- the track problems, graded ---------------------------------------------------------------

def _grade(pid, name, examples_only=False, gate=False):
    """Graded with the source gate off (the twins' layer is behind it), or on for honest code."""
    problem = spec.load(ROOT / "problems" / f"{pid}.yaml")
    result = grading.grade(problem, FILES / f"{name}.py", use_cache=True, hints=False,
                           examples_only=examples_only, source_gate=gate)
    return result, [f"{c.name}: {c.verdict.value} {c.reason}: {c.message}" for c in result.cases]


HONEST = [("hvp_tanh", "hvp_zeros_when_concrete"),  # graded on what it computes with symbols
          ("pairwise_sq_dists", "pairwise_shift_by_first_point"),
          ("pairwise_sq_dists", "pairwise_three_operand_einsum"),
          ("per_example_clip", "per_example_clip_vmap_axis_name"),
          ("ema_scan", "ema_scan_fori_unroll")]


@pytest.mark.parametrize("pid, name", HONEST, ids=[h[1] for h in HONEST])
def test_honest_code_specialized_at_concrete_sizes_is_accepted(pid, name):
    result, messages = _grade(pid, name, gate=True)
    assert result.verdict is Verdict.AC, messages


#: Twins: one program when the dims are symbols, another when they are numbers. Every case runs
#: the first, so they are graded on its values (and its rules).
TWINS = [# its scan's carry reaches all but the rows the fixed copies overwrite: refused by the
         # recurrence's reach (judge.worker.reach) before its wrong values are compared
         ("ema_scan", "ema_scan_twin_fixed_copies", {"wrong_value", "missing_primitive"}),
         ("ema_scan", "ema_scan_numpy_closed_form_twin", {"wrong_value"}),
         # its scan's carry never reaches the output: no recurrence, before any value
         ("ema_scan", "ema_scan_scalar_loop_twin", {"missing_primitive"}),
         ("pairwise_sq_dists", "pairwise_direct_difference_twin", {"wrong_value"}),
         ("hvp_tanh", "hvp_hessian_twin", {"wrong_value"}),
         ("per_example_clip", "per_example_clip_loop_twin", {"wrong_value"}),
         ("masked_mean_xent", "masked_mean_xent_loop_twin", {"wrong_value"}),
         # k is named only in the tree's leaves, which are symbols too
         ("loss_and_grads", "loss_and_grads_class_loop_twin", {"wrong_value"})]


@pytest.mark.parametrize("pid, name, reasons", TWINS, ids=[t[1] for t in TWINS])
def test_a_twin_is_graded_on_the_program_the_rules_read(pid, name, reasons):
    result, messages = _grade(pid, name, examples_only=True)
    assert result.verdict in (Verdict.WA, Verdict.RJ) and result.reason in reasons, messages


def test_a_python_branch_on_a_dim_being_one_reads_it_as_a_number():
    """``if b == 1`` with b a symbol: JAX would answer False and run the other branch on every
    case, b = 1 included, the special case silently never. The judge says that the code reads b
    as a number, as it does for ``b >= 2``, and names the line; a branch taken as data
    (``lax.cond``) is graded on what it computes at each case (the ``*_cond_*`` attacks)."""
    problem = spec.load(ROOT / "problems" / "masked_mean_xent.yaml")
    assert any(c.inputs["logits"].shape[0] == 1 for c in problem.cases)
    result, messages = _grade("masked_mean_xent", "masked_mean_xent_extent_one", examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "dim_read_as_number"), messages
    assert "if logits.shape[0] == 1:" in result.cases[0].message, messages


def test_len_of_a_symbolic_axis_says_to_write_its_shape():
    result, messages = _grade("ema_scan", "ema_scan_len_of_x", examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "dim_read_as_number"), messages
    text = result.cases[0].message
    assert "the dim T" in text and "line 13" in text and "x.shape[0]" in text, messages


# --- every problem: one program per static signature ------------------------------------------

def _tree_request():
    return {"parameters": [{"name": "tree", "traced": True}, {"name": "scale", "traced": False}],
            "submission": "/none.py", "structure": False, "probes": {"wrt": ["tree"], "names": ["vjp"]}}


def test_a_case_without_symbolic_dims_runs_the_program_of_its_static_signature():
    """No symbolic spec: a case is keyed by its shapes, its trees' structures and its static
    values exactly; the entry is traced once per key (its output, then with the vjp traced in),
    and every case of the key gets that program's values, however many cases run."""
    calls = []

    def entry(tree, scale):
        calls.append((sorted(tree), float(scale)))
        return jax.tree_util.tree_map(lambda a: jnp.tanh(a) * scale, tree)

    runner = CaseRunner(entry, _tree_request())
    rng = np.random.default_rng(0)
    cases = [({"a": (3,)}, 0.5), ({"a": (3,)}, 0.5), ({"a": (3,)}, 2.0), ({"b": (3,)}, 0.5),
             ({"a": (3,)}, np.float32(0.5)), ({"a": (3,)}, 0.5), ({"a": (4,)}, 0.5)]
    for shapes, scale in cases:
        tree = {k: rng.standard_normal(s).astype(np.float32) for k, s in shapes.items()}
        cotangent = {k: rng.standard_normal(s).astype(np.float32) for k, s in shapes.items()}
        result = runner.run({"tree": tree, "scale": scale}, {"cotangent": cotangent})
        assert result["error"] is None, result["error"]
        out, pull = jax.vjp(lambda t: jax.tree_util.tree_map(lambda a: jnp.tanh(a) * scale, t), tree)
        got = protocol.decode_value(result["output"])
        for k in shapes:
            np.testing.assert_allclose(got[k], out[k], rtol=1e-6)
            np.testing.assert_allclose(protocol.decode_value(result["probes"]["vjp"])["tree"][k],
                                       pull(cotangent)[0][k], rtol=1e-6)
    # five signatures: (a3, 0.5), (a3, 2.0), (b3, 0.5), (a3, float32 0.5), (a4, 0.5); two calls each
    assert len(calls) == 10, calls


def test_python_runs_once_per_static_signature_when_graded(tmp_path):
    """Graded end to end: the submission's Python ran once per static signature of the cases
    (it appends a line to a file the test reads), not once per case, and every case is
    accepted."""
    problem = spec.load(ROOT / "problems" / "warmup_cosine.yaml")
    log = tmp_path / "calls.txt"
    source = (FILES / "warmup_cosine_says_when_called.py").read_text()
    submission = tmp_path / "warmup_cosine_says_when_called.py"
    submission.write_text(source.replace("print(", f"open({str(log)!r}, 'a').write(").replace(
        '}")', '}\\n")'))
    result = grading.grade(problem, submission, use_cache=True, hints=False, source_gate=False,
                           sandbox="none")
    assert result.verdict is Verdict.AC, [f"{c.name}: {c.reason}: {c.message}" for c in result.cases]
    signatures = {tuple(repr(c.inputs[n]) for n in ("base_lr", "warmup_steps", "total_steps"))
                  for c in problem.cases}
    lines = log.read_text().splitlines()
    assert len(lines) == len(signatures) < len(problem.cases), lines
    assert len(set(lines)) == len(lines)  # each signature traced once


def test_a_call_counter_is_graded_on_the_program_each_signature_traced():
    """Honest on its first call only: the cases of the first signature ran (and the rules read)
    the honest program; every other signature's program is the one refused."""
    result, messages = _grade("mixed_precision_step", "mixed_precision_honest_first_call")
    assert (result.verdict, result.reason) == (Verdict.RJ, "wrong_precision"), messages
    verdicts = [c.verdict for c in result.cases]
    assert verdicts[0] is Verdict.AC and Verdict.RJ in verdicts[1:], messages


_INTERLEAVED = r'''
import json

import jax
import jax.numpy as jnp
import numpy as np

from judge.worker import custody, instrument, protocol, provenance

recorder = instrument.install("rtestmarker")
measures, check_flow = custody.measures(recorder, "rtestmarker", provenance)
from judge.worker.case_runner import CaseRunner

calls = []


def entry(x, scale, cotangent):
    calls.append(scale)

    @jax.custom_vjp
    def quant(v):
        return jnp.round(v / scale) * scale

    quant.defvjp(lambda v: (jnp.round(v / scale) * scale, None), lambda _, g: (g,))
    values, pull = jax.vjp(quant, x)
    return {"values": values, "grads": pull(cotangent)[0]}


request = {"parameters": [{"name": "x", "traced": True}, {"name": "scale", "traced": False},
                          {"name": "cotangent", "traced": True}],
           "submission": "/none.py", "grad_rule": {"field": "grads", "cotangent": "cotangent"}}
runner = CaseRunner(entry, request, recorder, "rtestmarker")
runner.provenance = measures
found = []
for n, scale, factor in [(3, 0.5, 2.0), (4, 0.25, 4.0), (3, 0.5, 8.0), (4, 0.25, 16.0), (3, 0.5, 4.0)]:
    x, c = np.linspace(-1, 1, n, dtype=np.float32), np.arange(1, n + 1, dtype=np.float32)
    result = runner.run({"x": x, "scale": scale, "cotangent": c}, {}, factor)
    evidence = result["evidence"]
    found.append({"error": result["error"], "unmeasured": check_flow(evidence),
                  "provenance": evidence["provenance"],
                  "counts": [evidence["custom_vjp_applied"], evidence["backward_runs"]],
                  "grads": protocol.decode_value(result["output"])["grads"].tolist(),
                  "scaled": protocol.decode_value(evidence["scaled"])["grads"].tolist(),
                  "want": c.tolist(), "factor": factor})
print(json.dumps({"cases": found, "calls": calls}))
'''


def test_the_custom_vjp_evidence_of_a_program_holds_for_every_case_of_its_signature():
    """With the instrument installed (in a process of its own), two static signatures in turn:
    each is traced once, every case's gradients come from the backward rule, scaled by that
    case's own factor, and the dataflow measured right after a program's trace is the one its
    later cases report, though the other signature was traced in between."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _INTERLEAVED], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["calls"] == [0.5, 0.25]
    for case in got["cases"]:
        assert case["error"] is None and case["unmeasured"] is None, case
        assert case["counts"] == [1, 1] and case["provenance"]["reached"] is False, case
        assert case["grads"] == case["want"]
        assert case["scaled"] == [case["factor"] * g for g in case["want"]]


def test_a_loop_over_a_dim_named_only_in_a_tree_s_leaves_reads_it_as_a_number():
    result, messages = _grade("loss_and_grads", "loss_and_grads_loop_over_classes", examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "dim_read_as_number"), messages
    assert "range(p[\"b\"].shape[0])" in result.cases[0].message, messages
