"""The request the judge sends a worker: a problem's cases as inputs only, never expected outputs
(the format is ``judge.worker.protocol``'s), and the bound on each result line."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from judge import rules
from judge.errors import JudgeError
from judge.grade import plan
from judge.memo import ByIdentity
from judge.problem.model import Problem
from judge.rules.custom_vjp_grads import draw_factors
from judge.worker import protocol

CAPTURE_BYTES = 4096


#: What one result line may always take (text, errors, evidence, a program summary).
MESSAGE_FLOOR = 1024 * 1024


def message_budget(problem: Problem, cases) -> int:
    """Bytes one result line may take: the floor plus 16 times the largest expected output
    (base64, the scaled output, probes, a wrong shape); past it a line is OLE, never parsed."""
    largest = max((_sent(problem, c).expected_bytes for c in cases), default=0)
    return MESSAGE_FLOOR + 16 * largest


@dataclass(frozen=True)
class _Sent:
    """What the request carries of one case, the same for every submission of the problem."""

    args: dict            # its inputs, encoded (shared by every request: never changed)
    probe_args: dict      # its probe inputs, encoded
    expected_bytes: int   # the bytes of its expected output


_SENT = ByIdentity()


def _sent(problem: Problem, case, planned: plan.CasePlan | None = None) -> _Sent:
    def make() -> _Sent:
        probe_args = (planned or plan.case_plan(problem, case)).probe_args
        return _Sent(args=protocol.encode_args(case.inputs), probe_args=protocol.encode_args(probe_args),
                     expected_bytes=sum(np.asarray(v).nbytes for v in case.expected.values()))
    return _SENT.get((problem, case), make)


#: How a worker evaluates each traced program (``judge.worker.evaluate``): "numpy" computes the
#: operations NumPy gives bit for bit as XLA does in NumPy; "jax" binds every one with JAX.
EVALUATORS = ("numpy", "jax")


def evaluator() -> str:
    """The evaluator chosen by $JUDGE_EVALUATOR (default "numpy")."""
    chosen = os.environ.get("JUDGE_EVALUATOR", "numpy").strip().lower() or "numpy"
    if chosen not in EVALUATORS:
        raise JudgeError(f"JUDGE_EVALUATOR={chosen!r} is not one of {', '.join(EVALUATORS)}")
    return chosen


def build_request(problem: Problem, submission: Path, cases, planned: plan.Plan | None = None) -> dict:
    """The request for ``cases``, each as ``planned`` resolved it (``judge.grade.plan``; made
    here when not given, without the rules' traces, which the request does not carry)."""
    grad_rule = problem.rule("custom_vjp_grads")
    planned = planned or plan.resolve(problem, cases, traces=False)
    return {
        "protocol": protocol.PROTOCOL,
        "submission": str(submission),
        "entry_point": problem.entry_point,
        "parameters": [{"name": p.name, "traced": p.traced} for p in problem.parameters],
        "grad_rule": ({"field": grad_rule["field"], "cotangent": grad_rule.get("cotangent", "cotangent"),
                       **({"plumbed": True} if grad_rule.get("plumbed") else {}),
                       **({"values": grad_rule["values"]} if grad_rule.get("values") else {})}
                      if grad_rule else None),
        # one parameter named as a string (its gradient comes back alone), several as a list
        "probes": ({"wrt": list(problem.probes[0].wrt) if problem.probes[0].listed else problem.probes[0].wrt[0],
                    "names": [p.name for p in problem.probes]} if problem.probes else None),
        "capture_bytes": CAPTURE_BYTES,
        "message_bytes": message_budget(problem, cases),
        "structure": rules.needs_program(problem.rules),
        "reach": rules.needs_reach(problem.rules),
        "evaluator": evaluator(),
        # examples come first; the supervisor holds the rest back until they are reported
        "public_cases": sum(1 for c in cases if c.visibility == "example"),
        "cases": [{"index": c.index, "args": (sent := _sent(problem, c, planned.of(c))).args,
                   "probe_args": sent.probe_args,
                   "factor": factor,
                   **({"symbolic": dict(spec)} if (spec := planned.of(c).symbolic) else {})}
                  for c, factor in zip(cases, draw_factors(len(cases)))],
    }
