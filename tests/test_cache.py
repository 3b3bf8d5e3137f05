"""The judge's compilation cache: filled once from the reference, read-only to submissions."""

import hashlib
import os
import time
from pathlib import Path

import pytest

from tests.helpers import ROOT
from judge.run import cache, sandbox
from judge.grade import grading
from judge.grade.verdicts import Verdict

ADVERSARIAL = Path(__file__).resolve().parent / "adversarial"
ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted"


def snapshot(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}


@pytest.fixture()
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("JUDGE_CACHE", raising=False)
    return tmp_path / "cache"


def test_first_grade_warms_the_cache_once(private_cache, fq_problem):
    assert not cache.is_warm(fq_problem)
    result = grading.grade(fq_problem, ACCEPTED / "closure_vjp.py", examples_only=True)
    assert result.verdict is Verdict.AC
    assert cache.is_warm(fq_problem)
    entries = snapshot(cache.directory())
    assert len(entries) > 10  # compiled executables from the reference's run
    assert grading.warm_cache(fq_problem) is False  # nothing to do the second time


@pytest.mark.parametrize("fails", [False, True])
def test_a_fill_in_parts_runs_every_case_once_at_a_time(private_cache, fq_problem, monkeypatch,
                                                        fails):
    """``warm_cache(parts=2)`` (what `judge check -j 2` does): two reference runs at the same
    time, on shares of the cases that together are every case once; the cache is marked warm
    only when both succeed."""
    import threading

    from judge.errors import JudgeError

    shares, both_running = [], threading.Barrier(2, timeout=30)

    def reference_outputs(problem, cases=None, *, fill_cache=False, **kw):
        assert fill_cache
        shares.append([c.index for c in cases])
        both_running.wait()  # each waits for the other: they run at the same time
        if fails and len(shares) == 2:
            raise JudgeError("the reference failed")
        return {}

    monkeypatch.setattr(grading, "reference_outputs", reference_outputs)
    assert grading.warm_cache(fq_problem, parts=2) is not fails
    assert len(shares) == 2 and all(shares)
    assert sorted(i for share in shares for i in share) == [c.index for c in fq_problem.cases]
    assert cache.is_warm(fq_problem) is not fails


@pytest.mark.parametrize("bind_all, evaluator", [(True, "jax"), (False, "numpy")])
def test_a_fill_binds_every_operation_or_what_the_workers_bind(fq_problem, monkeypatch,
                                                               bind_all, evaluator):
    """A grade's fill binds every operation with JAX; `judge check`'s (``bind_all=False``) only
    what the workers' evaluator binds, so it compiles no operation NumPy computes for them."""
    from judge.errors import JudgeError

    sent = []

    def run_worker(request, **kw):
        sent.append((request["evaluator"], kw["cache_writable"]))
        raise JudgeError("stop here")

    monkeypatch.delenv("JUDGE_EVALUATOR", raising=False)
    monkeypatch.setattr(grading, "run_worker", run_worker)
    with pytest.raises(JudgeError, match="stop here"):
        grading.reference_outputs(fq_problem, fill_cache=True, bind_all=bind_all)
    assert sent == [(evaluator, True)]


def test_cache_can_be_turned_off(private_cache, fq_problem, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", "off")
    grading.grade(fq_problem, ACCEPTED / "closure_vjp.py", examples_only=True)
    assert not cache.directory().exists()


@pytest.mark.parametrize("mode", ["bwrap", pytest.param("none", marks=pytest.mark.slow)])
def test_a_submission_cannot_poison_the_cache(private_cache, fq_problem, mode):
    if mode == "bwrap" and sandbox.probe() is not None:
        pytest.skip(f"bwrap unavailable: {sandbox.probe()}")
    grading.warm_cache(fq_problem)
    before = snapshot(cache.directory())
    result = grading.grade(fq_problem, ADVERSARIAL / "poison_compile_cache.py", examples_only=True,
                           sandbox=mode, source_gate=False)  # the gate would refuse os and open
    assert result.verdict is Verdict.AC, result.message
    assert snapshot(cache.directory()) == before
    # and the next honest submission still gets correct answers from it
    assert grading.grade(fq_problem, ACCEPTED / "jit_static_args.py", examples_only=True,
                         sandbox=mode).verdict is Verdict.AC


def test_unsandboxed_workers_share_one_read_only_copy_kept_up_to_date(tmp_path):
    folder = tmp_path / "xla"
    folder.mkdir()
    (folder / "jit_a-cache").write_bytes(b"a")
    (folder / ".lock").write_text("")  # the judge's own files stay behind
    copy = cache.snapshot(folder)
    assert sorted(p.name for p in copy.iterdir()) == ["jit_a-cache"]
    assert cache.snapshot(folder) == copy  # one copy per process, not one per run
    (folder / "jit_b-cache").write_bytes(b"b")
    assert cache.snapshot(folder) == copy
    assert {p.name: p.read_bytes() for p in copy.iterdir()} == {"jit_a-cache": b"a", "jit_b-cache": b"b"}
    # read-only to a worker's JAX: no entry written, none changed
    assert not os.access(copy, os.W_OK) or os.geteuid() == 0
    assert all(p.stat().st_mode & 0o222 == 0 for p in copy.iterdir())
    assert copy.stat().st_mode & 0o222 == 0


def test_the_copy_lists_the_cache_again_only_when_the_folder_time_moved(tmp_path, monkeypatch):
    folder = tmp_path / "xla"
    folder.mkdir()
    (folder / "jit_a-cache").write_bytes(b"a")
    settled = time.time_ns() - 60 * 10**9
    os.utime(folder, ns=(settled, settled))
    listings = []
    real = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: listings.append(path) or real(path))
    copy = cache.snapshot(folder)
    assert cache.snapshot(folder) == copy and cache.snapshot(folder) == copy
    assert len(listings) == 1  # a warm cache: one stat a run, not a listing
    (folder / "jit_b-cache").write_bytes(b"b")  # the folder's time moves: listed and copied
    assert sorted(p.name for p in cache.snapshot(folder).iterdir()) == ["jit_a-cache", "jit_b-cache"]
    assert len(listings) == 2


def test_a_folder_time_close_to_the_clock_is_never_trusted(tmp_path):
    folder = tmp_path / "xla"
    folder.mkdir()
    (folder / "jit_a-cache").write_bytes(b"a")
    stamp = folder.stat().st_mtime_ns  # now: an entry may still come in the same clock tick
    copy = cache.snapshot(folder)
    (folder / "jit_b-cache").write_bytes(b"b")
    os.utime(folder, ns=(stamp, stamp))  # added within the same tick: the time did not move
    cache.snapshot(folder)
    assert sorted(p.name for p in copy.iterdir()) == ["jit_a-cache", "jit_b-cache"]
