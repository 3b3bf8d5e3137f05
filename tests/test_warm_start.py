"""When a command starts its warm worker server (``judge.run.warm``): the bubblewrap server is
started while the sandbox is probed, quietly; a server that cannot start is reported once, by the
first run that asks for it."""

import threading

import pytest

from judge.run import sandbox as sandboxing
from judge.run import warm


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setenv("JUDGE_WARM", "on")
    monkeypatch.setattr(warm, "_servers", {})
    monkeypatch.setattr(warm, "_unavailable", {})
    monkeypatch.setattr(warm, "_warned", set())
    monkeypatch.setattr(warm, "connect", lambda *args, **kwargs: None)
    warnings = []
    monkeypatch.setattr(sandboxing, "warn", warnings.append)
    return warnings


def test_a_quiet_failure_is_reported_once_by_the_next_run(fresh, monkeypatch):
    def cannot_start(*args):
        raise warm.ServerError("no user namespaces here")

    monkeypatch.setattr(warm, "WarmServer", cannot_start)
    assert warm.server_for("bwrap", "python", None, quiet=True) is None
    assert fresh == []
    assert warm.server_for("bwrap", "python", None) is None
    assert warm.server_for("bwrap", "python", None) is None
    assert len(fresh) == 1 and "no user namespaces here" in fresh[0]


@pytest.mark.parametrize("option, env, installed, started", [
    ("none", None, True, "none"), (None, "none", True, "none"), ("auto", None, True, "bwrap"),
    ("bwrap", None, True, "bwrap"), (None, None, True, "bwrap"), (None, "bogus", True, None),
    ("auto", None, False, "none"), ("none", None, False, "none"), ("bwrap", None, False, None),
    (None, None, False, None)])
def test_which_server_starts_before_the_probe(fresh, monkeypatch, option, env, installed, started):
    """The server the command's runs will ask for: bwrap's where it is installed (unless told
    none), the unsandboxed one where the probe will find no bwrap (auto) or none is asked for;
    none where bwrap is required (the command's default) and not installed."""
    if env is None:
        monkeypatch.delenv("JUDGE_SANDBOX", raising=False)
    else:
        monkeypatch.setenv("JUDGE_SANDBOX", env)
    monkeypatch.setattr(warm.shutil, "which", lambda name: "/usr/bin/bwrap" if installed else None)
    calls, done = [], threading.Event()

    def server_for(mode, python, cache_dir, **kwargs):
        calls.append((mode, kwargs))
        done.set()

    monkeypatch.setattr(warm, "server_for", server_for)
    warm.prestart_early(option, use_cache=False)
    assert done.wait(5 if started else 0.5) is bool(started)
    assert calls == ([(started, {"quiet": True, "wait": False, "ahead": True})] if started else [])


@pytest.mark.parametrize("command, ahead", [("grade", False), ("batch", True)])
def test_a_lone_grade_has_no_worker_forked_ahead(fresh, monkeypatch, command, ahead):
    """`judge grade` makes one run: its server forks each worker for its run, rather than keep
    one forked ahead for a run that never comes (which would only take a core from the grade);
    a batch's server keeps them."""
    from judge import entry

    monkeypatch.setattr(warm.shutil, "which", lambda name: "/usr/bin/bwrap")
    monkeypatch.delenv("JUDGE_SANDBOX", raising=False)
    monkeypatch.delenv("JUDGE_WARM_AHEAD", raising=False)
    configs = []

    class Started:
        def __init__(self, mode, python, cache_dir, ahead=True):
            configs.append(ahead)
            self.alive = True

    monkeypatch.setattr(warm, "WarmServer", Started)
    entry.start_server_early([command, "solution.py", "-p", "fake_quant_ste"])
    assert configs == [ahead]





@pytest.mark.parametrize("mode, copied", [("none", True), ("bwrap", False)])
def test_unsandboxed_runs_get_their_cache_copy_while_the_server_starts(fresh, monkeypatch,
                                                                        tmp_path, mode, copied):
    """Unsandboxed workers read a copy of the compilation cache: the command's prestart makes it
    while the server imports JAX, not the first runs once it is ready. bwrap mounts the cache
    itself: nothing to copy."""
    from judge.run import cache
    from judge.run.settings import Settings

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("JUDGE_CACHE", raising=False)
    started, calls, done = threading.Event(), [], threading.Event()
    monkeypatch.setattr(warm, "server_for", lambda *args, **kwargs: started.set())
    monkeypatch.setattr(cache, "snapshot", lambda folder: (calls.append(folder), done.set()))
    warm.prestart(Settings(mode))
    assert started.wait(5)
    assert done.wait(5 if copied else 0.5) is copied
    assert calls == ([cache.directory()] if copied else [])
