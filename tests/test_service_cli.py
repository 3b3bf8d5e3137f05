"""The ``judge service`` command's own behaviour: a clear message without the service extra,
its options refused with their reasons, and ``judge serve`` still reaching ``judge warm``."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge import cli
from judge.run import sandbox
from judge.service import main as service_main
from tests.helpers import ROOT, free_port, judge


def test_without_the_service_extra_it_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(service_main, "missing", lambda: ["fastapi", "huey"])
    assert cli.main(["service", "--data", str(tmp_path / "data")]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "missing here: fastapi, huey" in err and "pip install 'jax-judge[service]'" in err
    assert not (tmp_path / "data").exists()


def test_a_grader_needs_a_worker(tmp_path, capsys):
    pytest.importorskip("huey", reason="the service extra is not installed")
    assert cli.main(["service", "--grader-only", "--workers", "0",
                     "--data", str(tmp_path / "d")]) == cli.EXIT_ERROR
    assert "--grader-only needs --workers 1 or more" in capsys.readouterr().err


def test_a_queue_that_is_not_redis_is_refused(tmp_path, capsys):
    pytest.importorskip("huey", reason="the service extra is not installed")
    code = cli.main(["service", "--grader-only", "--queue", "amqp://host/",
                     "--data", str(tmp_path / "d")])
    assert code == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "--queue amqp://host/: a Redis URL is expected" in err and "internal error" not in err


def test_the_service_will_not_start_without_its_sandbox_unless_told(tmp_path, monkeypatch,
                                                                    capsys):
    """Fail closed: where bwrap cannot start, neither the API nor a grader starts (no token
    written, nothing served); ``auto`` is refused; only ``--sandbox none`` grades without it."""
    pytest.importorskip("huey", reason="the service extra is not installed")
    monkeypatch.setattr(sandbox, "BWRAP", "bwrap-is-not-installed-here")
    monkeypatch.setattr(sandbox, "_probe_cache", {})
    monkeypatch.delenv(sandbox.ENV_VAR, raising=False)
    data = tmp_path / "d"
    for extra in ([], ["--grader-only"]):
        assert cli.main(["service", "--data", str(data), *extra]) == cli.EXIT_ERROR
        err = capsys.readouterr().err
        assert "will not start without its sandbox" in err and "not found" in err, err
        assert "--sandbox none" in err
    assert not (data / "tokens").exists()
    assert cli.main(["service", "--data", str(data), "--sandbox", "auto"]) == cli.EXIT_ERROR
    assert "does not take --sandbox auto" in capsys.readouterr().err
    monkeypatch.setenv(sandbox.ENV_VAR, "auto")
    assert cli.main(["service", "--data", str(data)]) == cli.EXIT_ERROR
    assert "does not take --sandbox auto" in capsys.readouterr().err
    monkeypatch.delenv(sandbox.ENV_VAR)
    assert service_main.service_sandbox("none").sandbox == "none"  # told: it starts
    # an API whose graders are all elsewhere does not probe: it only says their mode
    assert service_main.service_sandbox(None, grades=False).sandbox == "bwrap"


def _graders_sandbox() -> str:
    """What a service started by these tests says of its graders: bwrap, unless the suite runs
    without it (tests/conftest.py then sets $JUDGE_SANDBOX=none)."""
    return "none" if os.environ.get(sandbox.ENV_VAR, "").lower() == "none" else "bwrap"


def test_judge_serve_is_judge_warm_under_its_former_name():
    warm, serve = judge("warm", "-h"), judge("serve", "-h")
    assert warm.returncode == serve.returncode == 0
    assert "--idle-timeout" in serve.stdout
    assert warm.stdout.split("\n", 1)[1] == serve.stdout.split("\n", 1)[1]  # but the usage line


# --- where the data goes -------------------------------------------------------------------

def test_the_data_folder_defaults_to_the_users_data_directory(tmp_path):
    assert service_main.default_data({"XDG_DATA_HOME": str(tmp_path)}) == (
        tmp_path / "jax-judge" / "service")
    home = Path(os.path.expanduser("~"))
    assert service_main.default_data({}) == home / ".local/share/jax-judge/service"
    # a relative $XDG_DATA_HOME is ignored, as the XDG specification says
    assert service_main.default_data({"XDG_DATA_HOME": "data"}) == (
        home / ".local/share/jax-judge/service")
    # never the current folder, whatever it is
    assert not service_main.default_data().is_relative_to(Path.cwd()) or Path.cwd() == home


def test_a_data_folder_inside_a_git_work_tree_is_refused_unless_asked(tmp_path, capsys):
    pytest.importorskip("huey", reason="the service extra is not installed")
    (tmp_path / "checkout" / ".git").mkdir(parents=True)
    data = tmp_path / "checkout" / "judge-service-data"
    assert cli.main(["service", "--grader-only", "--data", str(data)]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "inside the git work tree" in err and "--allow-data-in-git" in err
    assert not data.exists()  # nothing written
    args = cli.build_parser().parse_args(["service", "--data", str(data), "--allow-data-in-git"])
    service_main.check_data(args.data, args.allow_data_in_git)  # asked for: accepted
    assert service_main.git_work_tree(tmp_path / "elsewhere") is None


def test_the_service_logs_its_requests_and_a_last_line_when_stopped(tmp_path):
    pytest.importorskip("fastapi", reason="the service extra is not installed")
    httpx = pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")
    port = free_port()
    token = "cli-token-0123456789abcdef"
    env = {**os.environ, "JUDGE_SERVICE_TOKEN": token, "XDG_DATA_HOME": str(tmp_path / "xdg"),
           # started elsewhere than the checkout, and still this checkout's judge
           "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    log = tmp_path / "service.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "judge", "service", "--port", str(port),
                                 "--workers", "0"], cwd=tmp_path, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/api/v1/problems",
                              headers={"Authorization": f"Bearer {token}"}, timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.3)
        assert r.status_code == 200
        health = httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=5)  # no token
        assert health.json() == {"status": "ok", "sandbox": _graders_sandbox()}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    text = log.read_text()
    assert re.search(r"judge service: GET /api/v1/problems 200 \d+ ms", text), text
    assert text.rstrip().endswith("judge service: stopped"), text
    assert str(tmp_path / "xdg" / "jax-judge" / "service") in text  # the data folder said
    assert token not in text
    # nothing in the current folder: all of it in the data folder
    assert sorted(p.name for p in tmp_path.iterdir()) == ["service.log", "xdg"]


def test_half_open_connections_are_closed_and_open_ones_capped(tmp_path):
    """uvicorn as ``judge service`` runs it: connections that send no whole request head are
    closed after --header-timeout, and past --max-connections a request is answered 503 at
    once; the service answers normally again afterwards, with no restart."""
    pytest.importorskip("fastapi", reason="the service extra is not installed")
    httpx = pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")
    port = free_port()
    env = {**os.environ, "JUDGE_SERVICE_TOKEN": "cli-token-0123456789abcdef",
           "XDG_DATA_HOME": str(tmp_path / "xdg")}
    log = tmp_path / "service.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "judge", "service", "--port", str(port),
                                 "--workers", "0", "--header-timeout", "2",
                                 "--max-connections", "4"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    held = []
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                assert httpx.get(url + "/api/v1/health", timeout=5).status_code == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.3)
        for n in range(6):  # half-open: nothing, or part of a request head
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            if n % 2:
                sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(sock)
        time.sleep(0.3)
        assert httpx.get(url + "/api/v1/health", timeout=5).status_code == 503  # past the cap
        started = time.monotonic()
        for sock in held:
            assert sock.recv(1024) == b""  # closed by the server
        assert time.monotonic() - started < 8
        r = httpx.get(url + "/api/v1/health", timeout=5)
        assert r.status_code == 200 and r.json()["sandbox"] == _graders_sandbox()
        r = httpx.get(url + "/api/v1/health", headers={"Host": "rebound.example"}, timeout=5)
        assert r.status_code == 400  # a loopback service answers to loopback names only
    finally:
        for sock in held:
            sock.close()
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
