"""The worker's end of the result channel (judge.worker.channel): whole lines, and case reports
held back a moment to be written several at a time, never past a message that is not held, a
wait for the judge, or a case that runs long."""

import fcntl
import json
import os
import time

import pytest

from judge.worker.channel import open_channel


@pytest.fixture()
def pipe():
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, 1 << 20)  # room for everything a test writes
    yield read_fd, write_fd
    os.close(read_fd)


def _lines(fd: int) -> list[dict]:
    try:
        data = os.read(fd, 1 << 20)
    except BlockingIOError:
        return []
    return [json.loads(line) for line in data.decode().splitlines()]


def _until(fd: int, count: int, timeout: float = 5.0) -> list[dict]:
    got, deadline = [], time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        got += _lines(fd)
        time.sleep(0.01)
    return got


def test_case_reports_are_written_together_after_the_first(pipe):
    read_fd, write_fd = pipe
    send = open_channel(write_fd, "n0nce", hold_s=2.0)
    for i in range(5):
        send({"type": "case", "index": i}, hold=True)
    assert [m["index"] for m in _lines(read_fd)] == [0]  # the channel was quiet: at once
    assert _lines(read_fd) == []  # the rest held
    got = _until(read_fd, 4)
    assert [m["index"] for m in got] == [1, 2, 3, 4]
    assert all(m["nonce"] == "n0nce" for m in got)


def test_a_message_not_held_and_a_wait_write_everything_held_first(pipe):
    read_fd, write_fd = pipe
    send = open_channel(write_fd, None, hold_s=30.0)
    send({"type": "case", "index": 0}, hold=True)
    send({"type": "case", "index": 1}, hold=True)
    send({"type": "case", "index": 2}, hold=True)
    assert [m["index"] for m in _lines(read_fd)] == [0]
    send({"type": "halt", "cause": "memory_limit", "index": 3, "detail": ""})
    assert [m.get("index") for m in _lines(read_fd)] == [1, 2, 3]
    send({"type": "case", "index": 4}, hold=True)
    assert _lines(read_fd) == []
    send(None)  # before the worker waits for the hidden cases
    assert [m["index"] for m in _lines(read_fd)] == [4]
    send(None)
    assert _lines(read_fd) == []


def test_a_case_that_runs_long_does_not_keep_the_reports_before_it(pipe):
    read_fd, write_fd = pipe
    send = open_channel(write_fd, None, hold_s=0.05)
    send({"type": "case", "index": 0}, hold=True)
    send({"type": "case", "index": 1}, hold=True)
    assert [m["index"] for m in _lines(read_fd)] == [0]
    seen, deadline = [], time.monotonic() + 2.0
    while time.monotonic() < deadline and not seen:  # busy, as a long case is
        sum(range(10_000))
        seen = _lines(read_fd)
    assert [m["index"] for m in seen] == [1]
    time.sleep(0.1)
    send({"type": "case", "index": 2}, hold=True)  # quiet for longer than the hold: at once
    assert [m["index"] for m in _lines(read_fd)] == [2]


def test_many_held_reports_are_written_once_a_pipe_buffer_is_full(pipe):
    read_fd, write_fd = pipe
    send = open_channel(write_fd, None, hold_s=30.0)
    send({"type": "case", "index": 0}, hold=True)
    _lines(read_fd)
    big = "x" * 40_000
    send({"type": "case", "index": 1, "stdout": big}, hold=True)
    assert _lines(read_fd) == []
    send({"type": "case", "index": 2, "stdout": big}, hold=True)
    assert [m["index"] for m in _until(read_fd, 2)] == [1, 2]
