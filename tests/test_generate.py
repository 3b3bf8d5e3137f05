"""`judge generate`: deterministic, valid, unambiguous cases, written atomically, that catch the
known wrong submissions."""

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import yaml

from judge.problem import constraints, spec, spec_write
from judge.author import generate, generate_cmd
from judge.grade import grading
from judge.errors import JudgeError
from tests import helpers
from tests.helpers import ROOT

FAMILIES = ["ties", "just_outside"]


judge = partial(helpers.judge, timeout=600)  # a whole package: slower than one grade


def copy_package(dest: Path, problem: str) -> Path:
    """A copy of one problem package: spec, reference, generator and submissions."""
    for rel in (f"problems/{problem}.yaml", f"reference/{problem}.py", f"generators/{problem}.py"):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, dest / rel)
    shutil.copytree(ROOT / "submissions" / problem, dest / "submissions" / problem)
    return dest


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    return copy_package(tmp_path_factory.mktemp("pkg"), "fake_quant_ste")


def candidate(problem, module, inputs, probe=None, family="manual"):
    """A hand-made candidate, named gen_<family>_0_0."""
    cand, reasons = generate.prepare(problem, module, family, 0, 0,
                                     {"input": inputs, "probe": probe or {}})
    assert cand is not None, reasons
    return cand


# -- generator modules (no worker needed) ---------------------------------------------------------

@pytest.mark.parametrize("problem_id", ["fake_quant_ste", "sign_ste"])
def test_every_family_draws_valid_reproducible_candidates(problem_id):
    problem = spec.load(ROOT / "problems" / f"{problem_id}.yaml")
    module = generate.load_generator(problem)
    for family in sorted(module.families):
        for attempt in range(15):
            raws = [module.families[family](generate.family_rng(5, family, attempt)) for _ in range(2)]
            cands = [generate.prepare(problem, module, family, attempt, 5, raw) for raw in raws]
            (cand, reasons), (again, _) = cands
            assert cand is not None, (family, attempt, reasons)
            assert generate.input_key(cand.inputs, cand.probe) == \
                generate.input_key(again.inputs, again.probe)
            assert constraints.violations(problem.parameters, cand.inputs) == []
            x = cand.inputs["x"]
            tiny = float(np.finfo(np.float32).tiny if x.dtype.kind == "V" else np.finfo(x.dtype).tiny)
            magnitude = np.abs(x.astype(np.float64))
            assert np.all((magnitude == 0) | (magnitude >= tiny)), (family, "subnormal input")


def test_quotas_spread_the_count_and_rotate_with_the_seed():
    q = generate.quotas(5, ["a", "b", "c"], seed=0)
    assert q == {"a": 2, "b": 2, "c": 1}
    assert generate.quotas(1, ["a", "b", "c"], seed=2) == {"a": 0, "b": 0, "c": 1}
    assert sum(generate.quotas(50, [str(i) for i in range(14)], seed=7).values()) == 50


def test_a_generator_that_imports_jax_is_refused_unrun(tmp_path, fq_problem):
    pkg = tmp_path
    (pkg / "problems").mkdir()
    shutil.copy(fq_problem.path, pkg / "problems" / "fake_quant_ste.yaml")
    (pkg / "generators").mkdir()
    (pkg / "generators" / "fake_quant_ste.py").write_text(
        "import numpy as np\nimport jax.numpy as jnp\nFAMILIES = {}\n")
    problem = spec.load(pkg / "problems" / "fake_quant_ste.yaml")
    with pytest.raises(JudgeError, match=r"fake_quant_ste.py: line 2: .*'jax.numpy'"):
        generate.load_generator(problem)


def test_generating_never_imports_jax_into_the_judge_process():
    code = (
        "import sys\n"
        "from judge.author import generate, generate_cmd, kills  # noqa: F401\n"
        "from judge.problem import spec, spec_write  # noqa: F401\n"
        "for pid in ('fake_quant_ste', 'sign_ste'):\n"
        "    problem = spec.load(pid)\n"
        "    module = generate.load_generator(problem)\n"
        "    for family, draw in module.families.items():\n"
        "        cand, _ = generate.prepare(problem, module, family, 0, 0,\n"
        "                                   draw(generate.family_rng(0, family, 0)))\n"
        "        for alt in module.alternatives.values():\n"
        "            alt(cand.inputs, cand.probe)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib')], 'JAX imported'\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr


# -- the unambiguity filter -----------------------------------------------------------------------

def test_near_tie_is_rejected_naming_the_alternative(fq_problem):
    """x = 1.65 = float32(5.5 * 0.3) at scale 0.3: float32 division gives 5.4999995 (rounds to 5),
    multiplying by the float32 reciprocal gives exactly 5.5 (rounds to 6), and XLA does the latter
    under jit. x = 0.75 = float32(2.5 * 0.3) gives exactly 2.5 on every path, and is kept."""
    module = generate.load_generator(fq_problem)
    make = lambda x: candidate(fq_problem, module, {  # noqa: E731
        "x": np.array([x], np.float32), "scale": 0.3, "qmin": -8, "qmax": 7,
        "cotangent": np.array([1.0], np.float32)}, family=f"x{x}")
    tie = candidate(fq_problem, module, {"x": np.array([0.25, -0.75], np.float32), "scale": 0.5,
                                         "qmin": -4, "qmax": 3,
                                         "cotangent": np.array([1.0, 2.0], np.float32)})
    kept, rejected = generate.screen(fq_problem, module, [make(1.65), make(0.75), tie])
    assert [r.candidate.inputs["x"].tolist() for r in rejected] == [[np.float32(1.65)]]
    reasons = dict(rejected[0].reasons)
    assert "alt:reciprocal_f32" in reasons and "jit" in reasons
    assert "values" in reasons["alt:reciprocal_f32"]
    assert generate.reason_label("alt:reciprocal_f32") == "differs from alternative reciprocal_f32"
    assert [k.expected["values"].tolist() for k in kept] == [[np.float32(0.6)], [0.0, -1.0]]


def test_an_alternative_gets_the_probe_nested_as_the_spec_stores_it(root):
    """clip_by_global_norm returns a tree and is differentiated with respect to it: an
    alternative receives the cotangent as that tree under "cotangent", as a case's ``probe``
    holds it (not as flat slot names), and a gradient it computes differently rejects the
    candidate naming it."""
    problem = spec.load(root / "problems" / "clip_by_global_norm.yaml")
    module = generate.load_generator(problem)
    seen = []

    def halved(inputs, probe):
        seen.append(probe)
        return {"vjp": {"grads": {k: np.asarray(v) * np.float32(0.5)
                                  for k, v in probe["cotangent"].items()}}}

    module = dataclasses.replace(module, alternatives={"halved": halved})
    grads = {"w": np.array([3.0, 4.0], np.float32), "b": np.array(0.0, np.float32)}
    cot = {"w": np.array([1.0, -2.0], np.float32), "b": np.array(0.5, np.float32)}
    cand = candidate(problem, module, {"grads": grads, "max_norm": 10.0}, {"cotangent": cot})
    kept, rejected = generate.screen(problem, module, [cand])
    assert sorted(seen[0]) == ["cotangent"] and sorted(seen[0]["cotangent"]) == ["b", "w"]
    assert seen[0]["cotangent"]["w"].tolist() == [1.0, -2.0]
    assert not kept and "alt:halved" in dict(rejected[0].reasons)


def test_subnormal_sign_is_rejected(root):
    """XLA on the CPU flushes a subnormal to zero (sign 0); NumPy's sign says 1."""
    problem = spec.load(root / "problems" / "sign_ste.yaml")
    module = generate.load_generator(problem)
    probe = {"cotangent": np.array([2.0, 0.5], np.float32), "tangent": np.array([-1.0, 3.0], np.float32)}
    sub = candidate(problem, module, {"x": np.array([1e-40, 1.0], np.float32)}, probe, "subnormal")
    normal = candidate(problem, module, {"x": np.array([1.2e-38, -1.0], np.float32)}, probe, "normal")
    kept, rejected = generate.screen(problem, module, [sub, normal])
    assert [r.family for r in rejected] == ["subnormal"]
    assert [k.candidate.family for k in kept] == ["normal"]
    assert "alt:sign_float64" in dict(rejected[0].reasons)


# -- the command: determinism, --write, errors -----------------------------------------------------

@pytest.mark.slow  # generating end to end stays in the default run: tests/test_author_workflow.py
def test_same_seed_same_bytes_and_write_appends_exactly_those_cases(package, tmp_path):
    args = ["generate", "fake_quant_ste", "--count", "3", "--seed", "11", "--family", *FAMILIES]
    first = judge(*args, cwd=package)
    assert first.returncode == 0, first.stderr
    # generated again (not the kept output of the first run): the same bytes
    second = judge(*args, "--out", str(tmp_path / "again.yaml"), cwd=package,
                   env={**os.environ, "JUDGE_CACHE": "off"})
    assert second.returncode == 0, second.stderr
    assert (tmp_path / "again.yaml").read_text() == first.stdout
    cases = yaml.safe_load(first.stdout)["hidden"]
    assert len(cases) == 3 and all(c["seed"] == 11 and c["family"] in FAMILIES for c in cases)
    assert re.search(r"candidates: \d+ drawn, \d+ rejected", first.stderr), first.stderr

    path = package / "problems" / "fake_quant_ste.yaml"
    before = path.read_text()
    wrote = judge(*args, "--write", cwd=package)
    assert wrote.returncode == 0, wrote.stderr
    items = first.stdout.split("hidden:\n", 1)[1]
    assert path.read_text() == before + items          # comments and old cases kept byte for byte
    assert not list(path.parent.glob(".*.tmp"))
    problem = spec.load(path)                          # loads with full validation
    assert [c.name for c in problem.hidden][-3:] == [c["name"] for c in cases]
    new = problem.hidden[-3:]
    outputs = grading.reference_outputs(problem, new)
    for case in new:
        for name, expected in case.expected.items():
            assert np.array_equal(outputs[case.index][name], expected), (case.name, name)


def test_write_writes_what_the_preview_showed_without_generating_again(tmp_path):
    """A preview, then the same command with --write: the spec gains exactly the preview's
    cases, from the kept output; once the spec has changed, the same preview generates anew."""
    package = copy_package(tmp_path / "pkg", "fake_quant_ste")
    env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("JUDGE_CACHE", None)
    args = ["generate", "fake_quant_ste", "--count", "2", "--seed", "5", "--family", "ties"]
    preview = judge(*args, cwd=package, env=env)
    assert preview.returncode == 0, preview.stderr
    assert "nothing generated again" not in preview.stderr
    path = package / "problems" / "fake_quant_ste.yaml"
    before = path.read_text()
    wrote = judge(*args, "--write", cwd=package, env=env)
    assert wrote.returncode == 0, wrote.stderr
    assert "nothing generated again" in wrote.stderr and "wrote 2 cases" in wrote.stderr
    assert path.read_text() == before + preview.stdout.split("hidden:\n", 1)[1]
    again = judge(*args, cwd=package, env=env)  # the spec now holds them: a new key
    assert "nothing generated again" not in again.stderr, again.stderr


@pytest.mark.parametrize("args, message", [
    (["--family", "nope"], r"generators/fake_quant_ste.py: no family 'nope'"),
    (["--count", "0"], r"--count: must be a positive integer"),
])
def test_bad_options_exit_2_with_one_line(package, args, message):
    base = {"--count": "2", "--seed": "1"}
    for i in range(0, len(args), 2):
        base[args[i]] = args[i + 1]
    r = judge("generate", "fake_quant_ste", *[x for kv in base.items() for x in kv], cwd=package)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("judge: error:")
    assert re.search(message, lines[0]), lines[0]


def test_missing_generator_module_exits_2(tmp_path):
    (tmp_path / "problems").mkdir()
    shutil.copy(ROOT / "problems" / "sign_ste.yaml", tmp_path / "problems")
    r = judge("generate", "sign_ste", "--count", "1", "--seed", "0", cwd=tmp_path)
    assert r.returncode == 2 and "generators/sign_ste.py: no generator module" in r.stderr


# -- atomic writing ---------------------------------------------------------------------------------

ITEMS = ("  - name: gen_test_0_0\n    family: \"test\"\n    seed: 0\n"
         "    input: {x: [0.25], scale: 0.5, qmin: -4, qmax: 3, cotangent: [1.0]}\n"
         "    expected: {values: [0.0], grads: [1.0]}\n")


@pytest.mark.parametrize("fail", ["replace", "fsync", "verify"])
def test_interrupted_write_leaves_the_spec_unchanged(tmp_path, monkeypatch, fail):
    copy_package(tmp_path, "fake_quant_ste")
    path = tmp_path / "problems" / "fake_quant_ste.yaml"
    before = path.read_bytes()
    items, names = ITEMS, ["gen_test_0_0"]

    def boom(*a, **k):
        raise OSError("simulated crash")

    if fail == "replace":
        monkeypatch.setattr(os, "replace", boom)
    elif fail == "fsync":
        monkeypatch.setattr(os, "fsync", boom)
    else:   # a case that breaks the constraints: verification refuses it before the rename
        items = ITEMS.replace("scale: 0.5", "scale: -0.5")
    with pytest.raises((OSError, JudgeError)):
        spec_write.append_hidden(path, items, names)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["fake_quant_ste.yaml"]


def test_append_keeps_comments_and_handles_every_hidden_form():
    head = "# top comment\nid: p  # trailing\n"
    item = "  - name: b\n    input: {x: 2}\n"
    block = head + "hidden:\n  - name: a   # first\n    input: {x: 1}\n# after the cases\nlimits: {}\n"
    out = spec_write.insert_hidden(block, item, Path("p.yaml"))
    assert out == head + ("hidden:\n  - name: a   # first\n    input: {x: 1}\n" + item +
                          "# after the cases\nlimits: {}\n")
    for form in ("hidden: []\n", "hidden:\n", "hidden: ~\n", ""):
        out = spec_write.insert_hidden(head + form, item, Path("p.yaml"))
        assert out.startswith(head) and yaml.safe_load(out)["hidden"] == [{"name": "b", "input": {"x": 2}}]
    flush_left = spec_write.insert_hidden(head + "hidden:\n- name: a\n  input: {x: 1}", item, Path("p.yaml"))
    assert flush_left.endswith("input: {x: 1}\n- name: b\n  input: {x: 2}\n")
    with pytest.raises(JudgeError, match="block list"):
        spec_write.insert_hidden(head + "hidden: [{name: a}]\n", item, Path("p.yaml"))


# -- strength ---------------------------------------------------------------------------------------

@pytest.mark.slow
def test_fifty_cases_catch_every_wrong_and_rejected_submission(fq_problem):
    """About a minute: 11 submissions graded on 50 generated cases."""
    outcome = generate_cmd.run(fq_problem, 50, seed=1, minimize=True, jobs=2)
    matrix = outcome.matrix
    assert len(matrix.submissions) >= 11          # every wrong_answer/ and rejected/ file
    assert outcome.before_minimize == 50
    assert matrix.uncaught() == [], generate_cmd.render_report(outcome)
    assert 1 <= len(outcome.kept) < 50 and matrix.caught() == set(matrix.submissions)


def test_duplicates_of_existing_cases_are_dropped(fq_problem):
    first = fq_problem.hidden[0]
    module = generate.GeneratorModule(Path("same.py"), {"same": lambda rng: {"input": dict(first.inputs)}}, {})
    gen = generate.Generator(fq_problem, module, 0, ["same"])
    assert gen.round(2) == []            # nothing reached the reference: no worker was started
    assert {key for r in gen.rejected for key, _ in r.reasons} == {"duplicate"}
    assert gen.shortfalls and "0 of 2" in gen.shortfalls[0]


TINY_SPEC = """\
id: double
title: Double
statement: Return 2 * x.
entry_point: double
parameters:
  - {name: x, kind: array, dtype: float32, ndim: [1], min_size: 1, max_size: 4, finite: true}
output: {kind: array, shape_like: x, dtype_like: x}
examples:
  - name: one
    input: {x: [1.0]}
    expected: [2.0]
hidden: []
"""
TINY_FILES = {
    "reference/double.py": "def double(x):\n    return 2 * x\n",
    "generators/double.py": (
        "import numpy as np\n\n"
        "def small(rng):\n"
        "    return {'input': {'x': rng.uniform(-1, 1, int(rng.integers(1, 5))).astype(np.float32)}}\n\n"
        "FAMILIES = {'small': small}\n"),
    "submissions/double/wrong_answer/identity.py": "def double(x):\n    return x\n",
    # wrong only where |x| > 100, which the generator never draws
    "submissions/double/wrong_answer/large_only.py": (
        "import jax.numpy as jnp\n\ndef double(x):\n    return jnp.where(jnp.abs(x) > 100, x, 2 * x)\n"),
}


def test_target_gives_up_after_its_rounds_with_a_kill_matrix(tmp_path, monkeypatch):
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "double.yaml").write_text(TINY_SPEC)
    for rel, text in TINY_FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    monkeypatch.setattr(generate_cmd, "MAX_ROUNDS", 2)
    problem = spec.load(tmp_path / "problems" / "double.yaml")
    outcome = generate_cmd.run(problem, 2, seed=4, target=True)
    assert outcome.rounds == 2
    assert [k.candidate.name for k in outcome.kept] == [f"gen_small_4_{i}" for i in range(4)]
    assert outcome.matrix.uncaught() == ["wrong_answer/large_only.py"]
    assert outcome.matrix.kills("gen_small_4_0") == {"wrong_answer/identity.py"}
    report = generate_cmd.render_report(outcome)
    assert "gave up after 2 rounds" in report and "wrong_answer/large_only.py" in report
    assert "kill matrix" in report
