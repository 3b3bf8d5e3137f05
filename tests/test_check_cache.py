"""`judge check`'s result cache (``judge.grade.result_cache``) and ``--watch``.

One small package (fake_quant_ste with three hidden cases, an accepted and a wrong submission)
is checked once, cold, for the whole module; each test copies that package and the results it
stored, changes something, and checks again, counting the workers that start.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from judge.author.check import check_problem
from judge.grade import grading, result_cache
from judge.reports import check_text
from tests.helpers import ROOT

SUBS = ROOT / "submissions" / "fake_quant_ste"
KEEP_HIDDEN = (0, 3, 6)
SECRET = b"k" * 32  # the tests' own key: the judge's journal key is left alone
PICKED = {"accepted/closure_vjp.py": SUBS / "accepted" / "closure_vjp.py",
          "wrong_answer/missing_clip.py": SUBS / "wrong_answer" / "missing_clip.py"}


def make_package(root: Path) -> Path:
    data = yaml.safe_load((ROOT / "problems" / "fake_quant_ste.yaml").read_text())
    data["hidden"] = [data["hidden"][i] for i in KEEP_HIDDEN]
    data.pop("related", None)
    data.pop("scoring", None)
    spec = root / "problems" / "fake_quant_ste.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    (root / "reference").mkdir()
    shutil.copy(ROOT / "reference" / "fake_quant_ste.py", root / "reference")
    for rel, source in PICKED.items():
        target = root / "submissions" / "fake_quant_ste" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)
    return spec


def check(spec: Path, store: Path):
    cache = result_cache.ResultCache(store, secret=SECRET)
    return check_problem(spec, result_cache=cache), cache


def shown(report) -> list:
    """What a report says, without its times and the note of what was reused."""
    return ([(c.name, c.skipped) for c in report.checks],
            [(f.check, f.level, f.file.split("fake_quant_ste")[-1], f.message) for f in report.findings],
            [c.summary.split(" (")[0] for c in report.checks if c.name.startswith("verdict")])


@pytest.fixture(scope="module")
def cold(tmp_path_factory):
    """The package, checked once with an empty cache: (folder, cache folder, report)."""
    base = tmp_path_factory.mktemp("cold")
    spec = make_package(base / "package")
    report, cache = check(spec, base / "results")
    assert report.errors == 0, check_text.render(report)
    assert cache.hits == 0 and cache.stored == len(PICKED) + 1  # and the reference's outputs
    return base, report


@pytest.fixture
def warm(cold, tmp_path):
    """A copy of the checked package and of its stored results: (spec, cache folder)."""
    base, _ = cold
    shutil.copytree(base / "package", tmp_path / "package")
    shutil.copytree(base / "results", tmp_path / "results")
    return tmp_path / "package" / "problems" / "fake_quant_ste.yaml", tmp_path / "results"


@pytest.fixture
def workers(monkeypatch):
    """The requests of every worker that starts (the reference's and the submissions')."""
    started = []
    real = grading.run_worker

    def counted(request, **kwargs):
        started.append(Path(request["submission"]).name)
        return real(request, **kwargs)

    monkeypatch.setattr(grading, "run_worker", counted)
    return started


def test_a_recheck_of_an_unchanged_package_starts_no_worker_and_says_the_same(cold, warm, workers):
    spec, store = warm
    report, cache = check(spec, store)
    assert workers == []
    assert cache.hits == len(PICKED) and cache.reference_hits == 1
    assert shown(report) == shown(cold[1])
    found = next(c for c in report.checks if c.name == "submissions")
    assert f"({len(PICKED)} graded from stored runs)" in found.summary


def test_an_edited_expected_output_is_judged_again_without_a_worker(warm, workers):
    spec, store = warm
    data = yaml.safe_load(spec.read_text())
    data["hidden"][0]["expected"]["values"][0] += 0.5
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    report, cache = check(spec, store)
    assert workers == []
    assert cache.hits == len(PICKED)
    text = check_text.render(report)
    assert [f.check for f in report.findings if f.level == "error"] == \
        ["expected", "verdict accepted/closure_vjp.py"], text
    verdict = next(c for c in report.checks if c.name == "verdict accepted/closure_vjp.py")
    assert verdict.summary.startswith("WA"), text


def test_an_edited_submission_runs_again_alone(warm, workers):
    spec, store = warm
    sub = spec.parent.parent / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"
    sub.write_text(sub.read_text() + "\n# edited\n")
    report, cache = check(spec, store)
    assert workers and set(workers) == {"closure_vjp.py"}  # its run (and trace run) only
    assert cache.hits == len(PICKED) - 1 and report.errors == 0
    workers.clear()
    check(spec, store)  # stored again: the next check reuses it
    assert workers == []


def test_an_edited_reference_runs_the_reference_again(warm, workers):
    spec, store = warm
    ref = spec.parent.parent / "reference" / "fake_quant_ste.py"
    ref.write_text(ref.read_text() + "\n# edited\n")
    report, cache = check(spec, store)
    assert "fake_quant_ste.py" in workers
    assert cache.reference_hits == 0 and report.errors == 0


def test_a_changed_case_input_runs_the_submissions_again(warm, workers):
    spec, store = warm
    data = yaml.safe_load(spec.read_text())
    data["hidden"][0]["input"]["scale"] = 0.5 if data["hidden"][0]["input"]["scale"] != 0.5 else 0.25
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    _, cache = check(spec, store)
    assert cache.hits == 0 and {"closure_vjp.py", "missing_clip.py"} <= set(workers)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "forged"])
def test_a_damaged_stored_file_is_a_miss(cold, warm, workers, damage):
    spec, store = warm
    files = sorted(store.rglob("*.json"))
    assert len(files) == len(PICKED) + 1  # the submissions' and the reference's
    for path in files:
        text = path.read_text()
        if damage == "garbage":
            path.write_bytes(b"\xff\x00 not json")
        elif damage == "truncated":
            path.write_text(text[: len(text) // 2])
        else:  # valid JSON, changed without the key: its MAC no longer matches
            entry = json.loads(text)
            entry["problem"] = "other"
            path.write_text(json.dumps(entry))
    report, cache = check(spec, store)
    assert cache.hits == 0 and cache.reference_hits == 0
    assert "closure_vjp.py" in workers and "missing_clip.py" in workers
    assert shown(report) == shown(cold[1])


@pytest.fixture(scope="module")
def unrolling_problem(tmp_path_factory):
    """per_example_clip with n not symbolic: its no_unrolling rule then traces each case again
    at an extent of n drawn at random (``judge.grade.plan``), which a replay must reuse."""
    from judge.problem import spec

    root = tmp_path_factory.mktemp("unrolling")
    data = yaml.safe_load((ROOT / "problems" / "per_example_clip.yaml").read_text())
    data["symbolic_dims"] = ["d"]
    data["hidden"] = data["hidden"][:2]
    for key in ("related", "scoring"):
        data.pop(key, None)
    (root / "problems").mkdir()
    (root / "reference").mkdir()
    (root / "problems" / "per_example_clip.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    shutil.copy(ROOT / "reference" / "per_example_clip.py", root / "reference")
    return spec.load(root / "problems" / "per_example_clip.yaml")


@pytest.mark.parametrize("rel, verdict", [("accepted/vmap_grad.py", "AC"),
                                          ("rejected/python_loop.py", "RJ")])
def test_a_replay_reuses_the_traces_drawn_at_random(unrolling_problem, tmp_path, workers, rel,
                                                    verdict):
    store = result_cache.ResultCache(tmp_path, secret=SECRET)
    path = ROOT / "submissions" / "per_example_clip" / rel

    def graded():
        result = grading.grade(unrolling_problem, path, source_gate=False, hints=False,
                               result_cache=store)
        return [(c.index, c.verdict.value, c.reason, c.message, c.time_s) for c in result.cases]

    first = graded()
    assert workers and store.stored == 1
    workers.clear()
    assert graded() == first  # messages name the extent drawn: "... and 128 at n = 5"
    assert workers == [] and store.hits == 1
    assert verdict in {v for _, v, *_ in first}


def test_a_run_that_hit_a_limit_is_not_stored(tmp_path, fq_problem):
    """A verdict decided by the clock (here TLE) is measured again next time, never replayed."""
    store = result_cache.ResultCache(tmp_path, secret=SECRET)
    spin = SUBS / "time_limit_exceeded" / "spin_forever.py"
    result = grading.grade(fq_problem, spin, examples_only=True, time_per_case_s=1.0,
                           source_gate=False, hints=False, result_cache=store)
    assert result.verdict.value == "TLE"
    assert store.stored == 0 and not list(tmp_path.rglob("*.json"))


def own_cache(tmp_path) -> dict:
    """An environment whose judge cache folder is the test's own, the compilation cache shared."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    for xla in result_cache.cache.root().glob("xla*"):
        (cache_dir / xla.name).symlink_to(xla)
    return {**os.environ, "JUDGE_CACHE_DIR": str(cache_dir)}


def test_no_cache_neither_reuses_nor_stores(warm, tmp_path):
    spec, _ = warm
    env = own_cache(tmp_path)
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "judge", "check", str(spec), "--no-cache"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "stored" not in done.stdout.split("submissions found")[1].splitlines()[0]
    assert not (tmp_path / "cache" / "check-results").exists()


def test_watch_checks_again_after_a_touch(warm, tmp_path):
    spec, store = warm
    env = own_cache(tmp_path)
    out = tmp_path / "out.txt"
    with open(out, "w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "judge", "check", str(spec), "--watch"],
                                cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        wait_for(out, "watching 1 problem", proc)
        sub = spec.parent.parent / "submissions" / "fake_quant_ste" / "wrong_answer" / "missing_clip.py"
        os.utime(sub, ns=(time.time_ns(), time.time_ns() + 10**9))
        wait_for(out, "missing_clip.py changed; checking fake_quant_ste again", proc)
        wait_for(out, "fake_quant_ste: 0 errors", proc, count=2)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=240) == 0  # stopping takes longer on a loaded machine
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = out.read_text()
    assert "stopped watching" in text and "Traceback" not in text, text
    assert "(2 graded from stored runs)" in text.split("checking fake_quant_ste again")[1], text


def wait_for(path: Path, text: str, proc, count: int = 1, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.read_text().count(text) >= count:
            return
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise AssertionError(f"{text!r} not seen:\n{path.read_text()}")


def test_watch_checks_only_the_problem_whose_files_changed(tmp_path):
    import threading

    from judge.author import watch

    specs = []
    for name in ("one", "two"):
        spec = tmp_path / "problems" / f"{name}.yaml"
        spec.parent.mkdir(exist_ok=True)
        spec.write_text("id: " + name)
        sub = tmp_path / "submissions" / name / "accepted" / "a.py"
        sub.parent.mkdir(parents=True)
        sub.write_text("x = 1\n")
        specs.append(spec)
    checked, said = [], []
    added = tmp_path / "submissions" / "two" / "wrong_answer" / "new.py"

    def edit():
        time.sleep(0.25)
        added.parent.mkdir()
        added.write_text("x = 2\n")

    threading.Thread(target=edit).start()
    watch.watch(specs, checked.append, say=said.append, interval=0.1, settle=0.05, rounds=10)
    assert checked == [specs[1]]
    assert any("new.py changed; checking two again" in line for line in said), said


def test_traces_with_a_tree_among_their_values_are_stored_and_told_apart(tmp_path):
    """loss_and_grads with no symbolic dims: its rules trace beside each case with its tree of
    parameters among the values. A plan read back from JSON is the one planned (so its runs are
    stored and a warm check replays them), and a plan whose tree differs in one entry is not."""
    import dataclasses
    import json

    import numpy as np

    from judge.grade import plan, traces
    from judge.problem import spec

    variant = tmp_path / "loss_and_grads.yaml"
    variant.write_text((ROOT / "problems" / "loss_and_grads.yaml").read_text() + "\nsymbolic_dims: []\n")
    problem = spec.load(variant)
    planned = plan.resolve(problem, problem.cases).wanted
    assert planned, "no trace beside the cases: the test would prove nothing"
    back = traces.wanted_from(json.loads(json.dumps(traces.wanted_data(planned))))
    assert traces.same_wanted(back, planned)
    first = back[0]
    name, tree = next((k, v) for k, v in first.trace.values.items() if isinstance(v, dict))
    leaf = next(k for k, v in tree.items() if isinstance(v, np.ndarray) and v.size)
    changed = {**tree, leaf: tree[leaf] + np.float32(1)}
    other = dataclasses.replace(first, trace=dataclasses.replace(
        first.trace, values={**first.trace.values, name: changed}))
    assert not traces.same_wanted([other, *back[1:]], planned)
