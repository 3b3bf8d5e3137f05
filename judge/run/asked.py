"""The judge's answers to the programs a worker asks about: before a hidden case sent with
``decide`` (``judge.worker.protocol``) is evaluated, the worker sends the program its key traced
(``boundary.Asked``), and the judge answers whether to evaluate it. Here each question is checked
against what was sent, answered by the judge's own rules (``WorkerRun.decide``, which grading
passes in), and recorded; and a case reported ``skipped`` is accepted only where the judge
refused that very program for that case's key.

What is recorded is what the collector (``judge.run.collect``) accepts: the supervisor writes
the answers, a stored run replayed (``judge.grade.result_cache``) asks the rules of the day again,
so a replay whose answers would differ is refused as the protocol breach it would be. Decides no
verdict; starts and stops nothing.
"""

from __future__ import annotations

import logging

from judge.run.boundary import Asked, CaseReport
from judge.worker.protocol import ProtocolError

LOG = logging.getLogger("judge.run.asked")


def record(run, msg: Asked) -> None:
    """Answer ``msg``, the program of the case that is due: refused (not evaluated) only where
    the judge's rules refuse it (``run.decide`` true, given the run's reports so far). ProtocolError for a question about a case
    that is not due, was not sent with ``decide`` (``boundary`` checks that), or was asked about
    already."""
    position = len(run.cases)
    if run.loaded is None or not run.loaded.ok or position >= len(run.sent) \
            or msg.index != run.sent[position] or msg.index in run.asked:
        raise ProtocolError("a program for a case that was not due")
    refused = False
    if run.decide is not None:
        try:
            refused = bool(run.decide(msg.index, msg.program, msg.trace, run.cases))
        except Exception:  # noqa: BLE001 - the judge's fault: evaluate, as without a question
            LOG.exception("the rules could not answer the program of case %d", msg.index)
    run.asked[msg.index] = refused
    if refused:
        run.refused.setdefault(run.expected.decide[msg.index], []).append((msg.program, msg.trace))


def check(run, msg: CaseReport) -> None:
    """ProtocolError for a case reported ``skipped`` whose program (and trace) the judge did not
    refuse for its key, and for one evaluated though the judge refused the program it ran."""
    key = run.expected.decide.get(msg.index)
    refused = run.refused.get(key, ()) if key is not None else ()
    if msg.skipped and (msg.program, msg.trace) not in refused:
        raise ProtocolError("a case reported as skipped whose program the judge did not refuse")
    if not msg.skipped and msg.program is not None and any(msg.program == p for p, _ in refused):
        raise ProtocolError("a case evaluated after the judge refused its program")
