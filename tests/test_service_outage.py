"""Storage and queue outages (``judge.service.outage``): the API answers 503 in JSON with a
Retry-After while its database cannot be written (a full disk: a real full tmpfs where one can
be mounted, an injected error elsewhere), the log says so once and then at a backed-off rate with
the real error, and everything works again once the disk has room, without a restart."""

import contextlib
import errno
import logging
import os
import sqlite3
import subprocess
import time

import pytest

pytest.importorskip("fastapi", reason="the service extra is not installed "
                                      "(pip install -e '.[service]')")
pytest.importorskip("huey", reason="the service extra is not installed")

from fastapi.testclient import TestClient  # noqa: E402

from judge.service import outage  # noqa: E402
from judge.service.app import ServiceSettings, create_app  # noqa: E402
from judge.service.recorder import Recorder  # noqa: E402
from judge.service.store import Store  # noqa: E402
from tests.helpers import ROOT  # noqa: E402

TOKEN = "t" * 24
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SOURCE = (ROOT / "submissions/fake_quant_ste/accepted/closure_vjp.py").read_text()
BODY = {"problem": "fake_quant_ste", "source": SOURCE}


def client(data) -> TestClient:
    return TestClient(create_app(ServiceSettings(data=data, tokens=(TOKEN,), recorder=False,
                                                 root=ROOT)))


def outage_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "unavailable" in r.getMessage()]


def assert_unavailable(r):
    assert r.status_code == 503, r.text
    assert r.headers["content-type"] == "application/json"
    assert int(r.headers["retry-after"]) >= 1
    assert "try again" in r.json()["error"]


def test_a_database_that_cannot_be_written_is_503_said_once_and_recovers(tmp_path, caplog,
                                                                         monkeypatch):
    caplog.set_level(logging.INFO, logger="judge.service")
    with client(tmp_path / "data") as c:
        store = c.app.state.store
        add = store.add

        def full(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(store, "add", full)
        for _ in range(30):
            assert_unavailable(c.post("/api/v1/submissions", json=BODY, headers=AUTH))
        assert c.get("/api/v1/health").json()["status"] == "unavailable"
        lines = outage_lines(caplog)
        assert len(lines) == 1 and "database or disk is full" in lines[0], lines
        assert any(r.exc_info for r in caplog.records if "unavailable" in r.getMessage())
        # reads still work meanwhile: not the end of the outage while writes keep failing
        assert c.get("/api/v1/submissions", headers=AUTH).status_code == 200
        assert_unavailable(c.post("/api/v1/submissions", json=BODY, headers=AUTH))
        assert len(outage_lines(caplog)) == 1
        monkeypatch.setattr(store, "add", add)  # the disk has room again: no restart
        assert c.post("/api/v1/submissions", json=BODY, headers=AUTH).status_code == 202
        assert c.get("/api/v1/health").json()["status"] == "unavailable"  # until QUIET_S
        monkeypatch.setattr(outage, "QUIET_S", 0.0)
        assert c.get("/api/v1/health").json()["status"] == "ok"
        assert any("available again" in r.getMessage() for r in caplog.records)
        # a bug is 500, in JSON too, never a dropped connection
        monkeypatch.setattr(store, "list", lambda *a, **k: 1 / 0)
        r = c.get("/api/v1/submissions", headers=AUTH)
        assert r.status_code == 500 and "internal error" in r.json()["error"]


@contextlib.contextmanager
def small_disk(path, size_kb=32768):
    """A tmpfs of ``size_kb`` mounted at ``path`` (root only; skips where it cannot be)."""
    path.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0700", "tmpfs",
                           str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"a tmpfs cannot be mounted here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(folder) -> os.PathLike:
    """Fill the disk holding ``folder`` to the last byte; the filler's path."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        for size in (65536, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_is_503_and_room_again_needs_no_restart(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="judge.service")
    with small_disk(tmp_path / "disk") as disk, client(disk / "data") as c:
        assert c.post("/api/v1/submissions", json=BODY, headers=AUTH).status_code == 202
        filler = fill(disk)
        for _ in range(20):
            r = c.post("/api/v1/submissions", json=BODY, headers=AUTH)
            assert_unavailable(r)
        assert c.get("/api/v1/submissions", headers=AUTH).status_code == 200  # reads still work
        assert len(outage_lines(caplog)) == 1, outage_lines(caplog)
        os.unlink(filler)
        r = c.post("/api/v1/submissions", json=BODY, headers=AUTH)
        assert r.status_code == 202, r.text
        listed = c.get("/api/v1/submissions", headers=AUTH).json()
        assert listed["total"] == 2  # the first and the last: none lost, none half-written


def test_a_failed_commit_raises_its_own_error_not_the_rollbacks(tmp_path):
    store = Store(tmp_path / "service.db")
    sub_id = store.add("owner", "fake_quant_ste", "pass\n")
    real = store._db

    class FullAtCommit:  # SQLite ends the transaction itself when a COMMIT fails for a full disk
        def __getattr__(self, name):
            return getattr(real, name)

        def execute(self, sql, *args):
            if sql == "commit":
                real.execute("rollback")
                raise sqlite3.OperationalError("database or disk is full")
            return real.execute(sql, *args)

    store._db = FullAtCommit()
    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        store.record(sub_id, 1, "AC", "{}")
    store._db = real
    assert store.get(sub_id).status == "queued"  # nothing half-recorded
    assert store.record(sub_id, 1, "AC", "{}")  # and it records once the disk has room


def test_the_recorder_logs_a_queue_outage_once_then_says_it_is_back(tmp_path, caplog,
                                                                    monkeypatch):
    from judge.service import queue as q

    caplog.set_level(logging.INFO, logger="judge.service")
    store = Store(tmp_path / "service.db")
    queue = q.open_queue(None, tmp_path)
    recorder = Recorder(store, queue)
    down = {"on": True}
    next_event = queue.next_event

    def unreachable():
        if down["on"]:
            raise ConnectionRefusedError(111, "Connection refused")
        return next_event()

    queue.next_event = unreachable
    monkeypatch.setattr(outage, "QUIET_S", 0.5)
    recorder.start()
    try:
        time.sleep(3.5)
        assert len(outage_lines(caplog)) == 1, outage_lines(caplog)
        assert "Connection refused" in outage_lines(caplog)[0]
        down["on"] = False
        deadline = time.monotonic() + 10
        while not any("available again" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        recorder.stop()


def test_an_outage_is_logged_at_a_backed_off_rate():
    now = [0.0]
    lines = []

    class Log:
        def error(self, *args, **kwargs):
            lines.append(args[0] % args[1:])

        def warning(self, *args, **kwargs):
            lines.append(args[0] % args[1:])

    state = outage.Outage("the queue", Log(), clock=lambda: now[0])
    for _ in range(6000):  # ten minutes of failures, ten a second
        state.failed(OSError(28, "No space left on device"))
        now[0] += 0.1
    # the first, then after 5, 10, 20, 40, 80, 160, 300 s...: a handful, not thousands
    assert 5 <= len(lines) <= 9, lines
    assert "No space left on device" in lines[0] and "not logged" in lines[1]
    state.ok()  # a read that works between two failures: still down
    assert state.down and "available again" not in lines[-1]
    now[0] += outage.QUIET_S
    state.ok()
    assert "available again after 605 s" in lines[-1] and not state.down
    assert outage.is_outage(sqlite3.OperationalError("database is locked"))
    assert not outage.is_outage(sqlite3.IntegrityError("UNIQUE"))
    assert not outage.is_outage(ZeroDivisionError())


def test_hueys_queue_errors_are_logged_once_then_backed_off():
    lines = []

    class Log:
        def error(self, *args, **kwargs):
            lines.append(args[0] % args[1:])

    keep = outage.QueueLogFilter(outage.Outage("the queue", Log()))

    def record(name, exc):
        return logging.LogRecord(name, logging.ERROR, __file__, 1, "Error reading from queue",
                                 (), (type(exc), exc, None) if exc else None)

    refused = ConnectionRefusedError(111, "Connection refused")
    assert [keep.filter(record("huey.consumer.Worker-1", refused)) for _ in range(50)] == [False] * 50
    assert len(lines) == 1 and "Connection refused" in lines[0]
    assert keep.filter(record("huey.consumer.Worker-1", KeyError("a bug")))  # not an outage
    assert keep.filter(record("judge.service", refused))  # not Huey's
    assert keep.filter(record("huey.consumer", None))
