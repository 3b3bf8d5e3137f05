"""The grading service (``judge service``): an HTTP API in front of a task queue.

One module per concern: ``app`` (the FastAPI application: routes, status codes), ``auth``
(bearer tokens), ``limits`` (per-token rate limit and queue bounds), ``store`` (the SQLite
database of submissions and results, the source of truth), ``queue`` (the Huey queue, its JSON
serializer and the keys graders and the API share), ``grader`` (what a grader process does with
one submission), ``recorder`` (the API process's loop that records results exactly once and
re-enqueues lost work), ``outage`` (what a storage or queue outage is, and how it is answered
and logged), ``connections`` (the HTTP server's bounds: header deadline, connection cap, Host
names), ``class_queue`` (``judge batch --queue``: a class graded by the graders over Redis),
``problems`` (problems as JSON), ``input_run`` (a run on a student's own input: the case, and
its grading beside the reference's output) and ``main`` (the command).

No module here imports or runs a submission: a grader grades through
``judge.grade.grading.grade``, which runs it in the judge's sandboxed worker, exactly as
``judge grade`` does.
"""

from __future__ import annotations

#: The packages of the ``service`` extra (``pip install 'jax-judge[service]'``).
EXTRA = ("fastapi", "uvicorn", "huey")


def missing() -> list[str]:
    """The packages of the ``service`` extra that cannot be imported here."""
    import importlib.util

    return [name for name in EXTRA if importlib.util.find_spec(name) is None]
