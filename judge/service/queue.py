"""The queue between the API process and the graders: Huey, on SQLite or on Redis.

``open_queue(url, data)`` gives the ``Queue`` both sides use: ``SqliteHuey`` in ``data/queue.db``
without a URL (one machine, nothing else to install), ``RedisHuey`` with ``redis://...`` (graders
on other machines take work from the same Redis).

Two Huey queues share one storage: ``tasks`` carries ``grade(submission, attempt, problem,
source, mode[, inputs])`` to the graders (``mode``: ``submit``, ``examples`` or ``input``, the
last with the student's ``inputs``, ``judge.service.store``); ``events`` carries small notices back to the API process (a grader
started an attempt). Huey's key-value store holds, per attempt, the grader's claim (written
once, ``put_if_empty``, so two deliveries of one attempt are graded once), its heartbeat and its
result, until the API process has recorded it in its database (``judge.service.store``).

Grading tasks are served by priority, highest first: ``-turn``, the submission's round
(``judge.service.store.Store.add``), so owners take turns instead of one owner's burst holding
everyone else back; within a round, first come, first served. On Redis the tasks are a sorted
set (``PriorityRedisHuey``, Redis 5 or later) under the name ``judge-grading``; a queue left by an
older judge under ``judge-tasks`` is not read, and the recorder enqueues its submissions again
from the database.

Everything crosses as JSON (``JsonSerializer``), never pickle: whoever can write to Redis must
not be able to run code in the API process or a grader by what they write there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from huey import PriorityRedisHuey, RedisHuey, SqliteHuey
from huey.registry import Message
from huey.serializer import Serializer

from judge.errors import JudgeError

TASK_NAME = "judge.service.grade"
#: The name of the grading tasks' queue on Redis.
GRADING_QUEUE = "judge-grading"


class JsonSerializer(Serializer):
    """Huey's messages and stored values as JSON. A message is a list of its fields (none of
    ours carries a date or a callback); anything else must be plain JSON."""

    def _serialize(self, data) -> bytes:
        if isinstance(data, Message):
            data = {"message": list(data)}
        else:
            data = {"value": data}
        return json.dumps(data, separators=(",", ":")).encode()

    def _deserialize(self, data) -> object:
        decoded = json.loads(bytes(data))
        if not isinstance(decoded, dict) or len(decoded) != 1:
            raise ValueError("not a message or value of the judge's service")
        if "message" in decoded:
            fields = decoded["message"]
            if not isinstance(fields, list) or len(fields) > len(Message._fields):
                raise ValueError("a message with the wrong fields")
            return Message(*fields)
        return decoded["value"]


def claim_key(sub_id: str, attempt: int) -> str:
    return f"claim:{sub_id}:{attempt}"


def beat_key(sub_id: str, attempt: int) -> str:
    return f"beat:{sub_id}:{attempt}"


def result_key(sub_id: str, attempt: int) -> str:
    return f"result:{sub_id}:{attempt}"


@dataclass
class Queue:
    tasks: object    # the Huey of grading tasks (graders consume it)
    events: object   # the Huey the API process reads notices from (never consumed by Huey)
    url: str | None  # None: SQLite in the data folder

    def enqueue(self, sub_id: str, attempt: int, problem: str, source: str,
                mode: str = "submit", turn: int = 0, inputs: str | None = None) -> None:
        """Queue one attempt; lower ``turn`` first (the store's round of the submission).
        ``inputs``: with mode ``input``, the student's input, as JSON."""
        extra = () if inputs is None else (inputs,)
        self.tasks.enqueue(self.grade_task.s(sub_id, attempt, problem, source, mode, *extra,
                                             priority=-turn))

    def pending(self) -> set[tuple[str, int]]:
        """(submission, attempt) of every grading task still waiting in the queue."""
        out = set()
        for task in self.tasks.pending():
            if len(task.args) >= 2:
                out.add((task.args[0], task.args[1]))
        return out

    def notify(self, event: dict) -> None:
        self.events.storage.enqueue(self.events.serializer.serialize(event), 0)

    def next_event(self) -> dict | None:
        data = self.events.storage.dequeue()
        return None if data is None else self.events.serializer.deserialize(data)

    # the key-value store (shared by both queues' storage)
    def put(self, key: str, value) -> None:
        self.tasks.put(key, value)

    def put_if_empty(self, key: str, value) -> bool:
        return bool(self.tasks.put_if_empty(key, value))

    def peek(self, key: str):
        return self.tasks.get(key, peek=True)

    def delete(self, key: str) -> None:
        self.tasks.delete(key)


def open_queue(url: str | None, data: Path, grade=None) -> Queue:
    """The queue at ``url`` (None: SQLite under ``data``). ``grade``: the function a grader
    runs for each task (``judge.service.grader.grade_task``); the API process only enqueues, and
    registers a stand-in under the same name."""
    serializer = JsonSerializer()
    if url:
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise JudgeError(f"--queue {url}: a Redis URL is expected (redis://HOST:PORT/DB)")
        tasks = PriorityRedisHuey(GRADING_QUEUE, url=url, serializer=serializer,
                                  results=False)
        events = RedisHuey("judge-events", url=url, serializer=serializer, results=False)
    else:
        path = str(Path(data) / "queue.db")
        tasks = SqliteHuey("judge-tasks", filename=path, serializer=serializer, results=False,
                           fsync=True)
        events = SqliteHuey("judge-events", filename=path, serializer=serializer, results=False,
                            fsync=True)
    queue = Queue(tasks=tasks, events=events, url=url)

    def run(sub_id: str, attempt: int, problem: str, source: str, mode: str = "submit",
            inputs: str | None = None):
        if grade is None:  # the API process never grades
            raise RuntimeError("grading tasks run in a grader process, not in the API")
        return grade(sub_id, attempt, problem, source, mode, inputs)

    # one name in every process (Huey names a task by its function's module and name)
    queue.grade_task = tasks.task(name=TASK_NAME)(run)
    return queue
