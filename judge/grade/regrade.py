"""Infrastructure faults are the judge's: a grade that ends ``IE`` is graded again.

``grade(problem, submission, **options)`` is ``grading.grade`` for the commands that grade
others' code (``judge grade``, ``judge batch``, the service's graders). A grade whose verdict is
``IE`` (a worker killed by a signal the judge did not send, ``worker_killed``; a worker that
could not start; the result protocol broken before the submission ran; ``judge_error``), or that
raises anything but a ``JudgeError``, is graded again, up to ``ATTEMPTS`` times in all. Only a
repeat of the same failure (the same reason code, or the same exception type) ends it: then the
``IE`` is the answer, never the student's ``RTE``. The result keeps the reason of each earlier
attempt (``GradeResult.regraded``, which the reports show), and the judge-side log says so too.

The judge's own limit kills (time, CPU time, memory, output, tasks) are verdicts, not ``IE``:
they are never graded again here.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from judge.errors import JudgeError
from judge.grade import grading
from judge.grade.verdicts import GradeResult, Verdict

LOG = logging.getLogger("judge.grade.grading")

#: Grades of one submission at most: the first and two more.
ATTEMPTS = 3


def grade(problem, submission, *, attempts: int = ATTEMPTS, **options) -> GradeResult:
    """``grading.grade(problem, submission, **options)``, graded again after an internal error
    until the same failure repeats or ``attempts`` grades were made. Raises the last exception
    when the last attempt raised."""
    faults: list[str] = []  # the reason code (or exception type) of each failed attempt
    for attempt in range(1, attempts + 1):
        failure = None
        try:
            result = grading.grade(problem, submission, **options)
        except JudgeError:
            raise  # the judge was asked something it cannot do: no attempt would differ
        except Exception as exc:  # noqa: BLE001 - a fault of the judge's; raised if it repeats
            failure, fault, said = exc, type(exc).__name__, "an internal error"
        else:
            if result.verdict is not Verdict.IE:
                break
            fault, said = result.reason, result.message
        repeated = fault in faults
        faults.append(fault)
        if repeated or attempt == attempts:
            if failure is not None:
                raise failure
            break
        LOG.warning("%s: attempt %d ended with an internal error (%s: %s); grading it again",
                    _name(submission), attempt, fault, said)
    earlier = tuple(faults[:-1] if result.verdict is Verdict.IE else faults)
    if earlier:
        LOG.warning("%s: graded %d times; the earlier attempts ended with an internal error "
                    "(%s); this is the last one's verdict, %s", _name(submission),
                    len(earlier) + 1, ", ".join(earlier), result.verdict.value)
    return replace(result, regraded=earlier) if earlier else result


def _name(submission) -> str:
    return str(getattr(submission, "label", None) or submission)
