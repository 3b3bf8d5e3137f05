"""The service's bookkeeping without grading: the queue's JSON serializer, and the recorder that
records each result once, gives up an attempt whose grader went silent and enqueues lost work
again (judge.service.recorder, judge.service.store, judge.service.queue)."""

import json
import pickle
import sqlite3

import pytest

pytest.importorskip("huey", reason="the service extra is not installed "
                                   "(pip install -e '.[service]')")

from huey.registry import Message  # noqa: E402

from judge.service import queue as q  # noqa: E402
from judge.service.recorder import MAX_ATTEMPTS, Recorder  # noqa: E402
from judge.service.store import Store  # noqa: E402


@pytest.fixture()
def parts(tmp_path):
    store = Store(tmp_path / "service.db")
    queue = q.open_queue(None, tmp_path)
    yield store, queue, Recorder(store, queue, lease_s=30)
    store.close()


def submit(store, queue, source="def f(): pass\n"):
    sub_id = store.add("owner", "fake_quant_ste", source)
    queue.enqueue(sub_id, 1, "fake_quant_ste", source)
    return sub_id


def take(queue):
    """What a grader does first with the next task: (submission, attempt)."""
    task = queue.tasks.dequeue()
    sub_id, attempt = task.args[0], task.args[1]
    assert queue.put_if_empty(q.claim_key(sub_id, attempt), "grader")
    queue.notify({"event": "start", "id": sub_id, "attempt": attempt})
    return sub_id, attempt


def finish(queue, sub_id, attempt, verdict="AC"):
    queue.put(q.result_key(sub_id, attempt), {"verdict": verdict,
                                               "report": f'{{"verdict": "{verdict}"}}'})
    queue.notify({"event": "done", "id": sub_id, "attempt": attempt})


def outcomes(store, sub_id):
    db = sqlite3.connect(store.path)
    return db.execute("select attempt, recorded from outcomes where submission = ? order by at",
                      (sub_id,)).fetchall()


# --- the serializer ------------------------------------------------------------------------

def test_messages_and_values_cross_as_json():
    s = q.JsonSerializer()
    message = Message("id1", q.TASK_NAME, None, 0, 0, None, ["sub", 1, "p", "src"], {})
    data = s.serialize(message)
    assert data.startswith(b"{") and s.deserialize(data) == message
    assert s.deserialize(s.serialize({"verdict": "AC"})) == {"verdict": "AC"}


class Boom:
    def __reduce__(self):
        return (exec, ("import builtins; builtins.PWNED = True",))


def test_a_pickle_in_the_queue_is_refused_never_loaded():
    import builtins

    with pytest.raises(ValueError):
        q.JsonSerializer().deserialize(pickle.dumps(Boom()))
    assert not hasattr(builtins, "PWNED")
    for forged in (b"[1, 2]", b'{"value": 1, "message": []}', b'{"message": "x"}',
                   b'{"message": [' + b"0," * 40 + b"0]}"):
        with pytest.raises(ValueError):
            q.JsonSerializer().deserialize(forged)


# --- the recorder --------------------------------------------------------------------------

def test_a_result_is_recorded_once_and_a_late_one_never_overwrites_it(parts):
    store, queue, recorder = parts
    sub_id = submit(store, queue)
    sub, attempt = take(queue)
    recorder.drain_events()
    assert store.get(sub_id).status == "running"
    finish(queue, sub, attempt, "WA")
    recorder.drain_events()
    row = store.get(sub_id)
    assert (row.status, row.verdict, row.result) == ("done", "WA", '{"verdict": "WA"}')
    # a second grading of the same submission (a duplicate delivery, a late grader) arrives
    finish(queue, sub, attempt, "AC")
    recorder.drain_events()
    assert store.get(sub_id).verdict == "WA"
    assert outcomes(store, sub_id) == [(1, 1), (1, 0)]
    assert queue.peek(q.result_key(sub, attempt)) is None  # the keys are cleared
    assert not store.record(sub_id, 2, "AC", "{}")  # the store itself refuses it too
    assert store.get(sub_id).verdict == "WA"


def test_a_second_delivery_of_one_attempt_is_not_graded_twice(parts):
    store, queue, recorder = parts
    sub_id = submit(store, queue)
    queue.enqueue(sub_id, 1, "fake_quant_ste", "def f(): pass\n")  # e.g. enqueued again at start
    take(queue)
    task = queue.tasks.dequeue()
    assert not queue.put_if_empty(q.claim_key(task.args[0], task.args[1]), "another grader")


def test_a_silent_grader_loses_its_attempt_and_the_next_one_is_enqueued(parts):
    store, queue, recorder = parts
    recorder.lease_s = 0.0  # the lease is over as soon as it starts
    sub_id = submit(store, queue)
    take(queue)
    recorder.drain_events()
    recorder.poll_running()  # the start's own heartbeat mark is not there: given up
    row = store.get(sub_id)
    assert (row.status, row.attempt) == ("queued", 2)
    assert queue.pending() == {(sub_id, 2)}
    # the first grader was only slow: its result still counts, once
    finish(queue, sub_id, 1, "AC")
    recorder.drain_events()
    assert store.get(sub_id).status == "done" and outcomes(store, sub_id) == [(1, 1)]


def test_a_submission_whose_every_grader_is_lost_is_recorded_ie_not_graded_forever(parts):
    store, queue, recorder = parts
    recorder.lease_s = 0.0
    sub_id = submit(store, queue)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert take(queue) == (sub_id, attempt)  # each grader dies silently mid-grade
        recorder.drain_events()
        recorder.poll_running()
    row = store.get(sub_id)
    assert (row.status, row.verdict, row.attempt) == ("done", "IE", MAX_ATTEMPTS)
    report = json.loads(row.result)
    assert (report["verdict"], report["reason"]) == ("IE", "grader_lost")
    assert report["regraded"] == ["grader_lost"] * (MAX_ATTEMPTS - 1)
    assert queue.pending() == set() and outcomes(store, sub_id) == [(MAX_ATTEMPTS, 1)]


def test_a_heartbeat_keeps_the_attempt(parts):
    store, queue, recorder = parts
    sub_id = submit(store, queue)
    take(queue)
    recorder.drain_events()
    lease = store.get(sub_id).lease_until
    queue.put(q.beat_key(sub_id, 1), 1)
    recorder.poll_running()
    assert store.get(sub_id).lease_until > lease and store.get(sub_id).attempt == 1


def test_at_start_lost_tasks_are_enqueued_again_and_stored_results_recorded(parts, tmp_path):
    store, queue, recorder = parts
    lost = submit(store, queue)
    waiting = submit(store, queue)
    graded = submit(store, queue)
    claimed = submit(store, queue)
    queue.tasks.storage.flush_queue()  # the queue lost every task (a grader took them and died)
    queue.enqueue(waiting, 1, "fake_quant_ste", "x")  # this one is still there
    queue.put(q.result_key(graded, 1), {"verdict": "AC", "report": '{"verdict": "AC"}'})  # graded while down
    queue.put(q.claim_key(claimed, 1), "a grader that died before saying so")
    Recorder(store, queue, lease_s=30).recover()
    assert queue.pending() == {(lost, 1), (waiting, 1)}
    assert store.get(graded).status == "done"
    assert store.get(claimed).status == "running"  # its lease decides whether it is given up


def test_a_task_missing_from_the_queue_is_enqueued_again_by_the_second_sweep(parts):
    store, queue, recorder = parts
    sub_id = submit(store, queue)
    queue.tasks.dequeue()  # a grader took it and has not claimed it yet, or died
    recorder.sweep_queued()
    assert queue.pending() == set()  # perhaps about to be claimed: not yet
    recorder.sweep_queued()
    assert queue.pending() == {(sub_id, 1)}


# --- the grader's side ---------------------------------------------------------------------

def test_a_grader_skips_an_attempt_claimed_already_and_never_loads_a_path(tmp_path):
    from judge.service.grader import Grader

    grader = Grader(None, tmp_path, sandbox="none")
    queue = grader.queue
    assert queue.put_if_empty(q.claim_key("s1", 1), "another grader")
    grader.grade_task("s1", 1, "fake_quant_ste", "def f(): pass\n")
    assert queue.peek(q.result_key("s1", 1)) is None and queue.next_event() is None
    # a task forged in the queue cannot make a grader load a spec from a path
    for forged in ("../../etc/passwd", "/tmp/x.yaml", "problems/fake_quant_ste.yaml", ""):
        verdict, report = grader.grade(forged, "def f(): pass\n")
        assert verdict == "IE" and "is not a problem id" in report


def test_a_malformed_result_in_the_store_is_not_recorded(parts):
    store, queue, recorder = parts
    sub_id = submit(store, queue)
    take(queue)
    recorder.drain_events()
    for forged in ("x", {"verdict": "AC"}, {"verdict": "AC", "report": "not json"},
                   {"verdict": "AC", "report": "[1]"}, {"verdict": "AC", "report": '{"verdict": "WA"}'}):
        queue.put(q.result_key(sub_id, 1), forged)
        recorder.poll_running()
        assert store.get(sub_id).status == "running", forged
    finish(queue, sub_id, 1, "AC")
    recorder.drain_events()
    assert store.get(sub_id).verdict == "AC"


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_lower_turns_are_served_first_and_one_turn_in_the_order_sent(backend, tmp_path):
    url = None
    if backend == "redis":
        url = _redis(tmp_path)
    queue = q.open_queue(url, tmp_path)
    for name, turn in [("a0", 0), ("a1", 1), ("a2", 2), ("b0", 0), ("c0", 0), ("b1", 1)]:
        queue.enqueue(name, 1, "fake_quant_ste", "x", "submit", turn)
    assert [queue.tasks.dequeue().args[0] for _ in range(6)] == ["a0", "b0", "c0", "a1", "b1",
                                                                 "a2"]


def _redis(tmp_path) -> str:
    import os
    import shutil
    import socket
    import subprocess
    import time

    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("JUDGE_REQUIRE_REDIS"):
            pytest.fail("redis-server is not installed and $JUDGE_REQUIRE_REDIS is set")
        pytest.skip("redis-server is not installed here; CI installs it")
    from tests.helpers import free_port

    port = free_port()  # skips the test where no TCP socket can be opened
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _servers.append(proc)
    deadline = time.monotonic() + 30
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return f"redis://127.0.0.1:{port}/0"
        assert time.monotonic() < deadline and proc.poll() is None, "redis-server did not start"
        time.sleep(0.05)


_servers: list = []


@pytest.fixture(autouse=True)
def _stop_redis():
    yield
    while _servers:
        proc = _servers.pop()
        proc.terminate()
        proc.wait(timeout=30)
