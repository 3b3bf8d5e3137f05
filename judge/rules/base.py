"""What every rule shares: the breach it reports and the evidence it reads.

A rule is one module in ``judge.rules`` with this contract:

* ``ID``: the rule id a spec names (``rules: [{id: ...}]``);
* ``REASONS``: the RJ reason codes it may report (each also in ``judge.grade.verdicts.REASONS``);
* ``EVIDENCE``: what it reads from the worker: ``"program"`` (the summary of the traced program,
  ``judge.run.boundary.Program``) and/or ``"custom_vjp"`` (the instrument's measurements);
* ``describe(rule) -> str``: the rule in words, for statements and ``judge show``;
* ``validate(rule, problem) -> list[(key, message)]``: what is wrong with the rule's keys beyond
  the schema (an unknown parameter, a bad expression), checked when the spec loads;
* ``check(rule, trace, problem) -> Breach | None``: the decision on one traced program (a case's, or one
  traced abstractly at a probe shape);
* optionally ``traces(rule, problem) -> list[AbstractTrace]``: more programs it needs traced
  abstractly, and ``check_traces(rule, traces, problem) -> Breach | None``: a decision across them;
* optionally ``case_traces(rule, problem, shapes, values, drawn, ran) -> list[AbstractTrace]``:
  programs it needs traced abstractly beside each case (at shapes derived from the case's), which
  its ``check`` then finds in ``trace.related`` (``drawn``: a dict the rule keeps for one grade,
  where what it draws at random for one case is kept for the next; ``ran``: the case's own
  program, traced with the symbolic dims, is the ``trace`` its ``check`` gets, no need to ask
  for it).

Rules decide on the judge's side from plain data the boundary already validated; they never see
a hidden case's inputs beyond the shapes and static values of the trace they judge, and their
messages show shapes and counts, never values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from judge.problem.model import ProbeShape


@dataclass(frozen=True)
class Breach:
    reason: str    # an RJ reason code from the rule's REASONS
    message: str


#: A program the judge asks a worker to trace without running it: traced parameters as shapes
#: (with their dtypes), static parameters as values. A spec's probe shape is one, named by the
#: author; rules make others (``traces``, ``case_traces``).
AbstractTrace = ProbeShape


@dataclass(frozen=True)
class TraceEvidence:
    """One traced program and what the rules may read of it."""

    label: str                               # how messages name it: "probe shape wide", "this case"
    shapes: Mapping[str, tuple[int, ...]]    # every array parameter's shape in this trace
    program: Any = None                      # judge.run.boundary.Program or None
    report: Any = None                       # judge.run.boundary.CaseReport (cases only)
    output: Any = None                       # the decoded output (cases only)
    factor: float | None = None              # what the backward rules were scaled by (cases only)
    abstract: bool = False                   # traced at a probe shape, never run
    #: rule index -> the traces that rule asked for beside this case (``case_traces``); the
    #: registry hands each rule its own as ``related``
    related_by_rule: Mapping[int, tuple] = field(default_factory=dict)
    related: tuple = ()
    #: traced with these dims as symbols: name -> (lowest, highest or None)
    symbols: Mapping[str, tuple] = field(default_factory=dict)
    #: the static values it was traced at (a rule's own traces: ``K = 7`` is ``{"K": 7, ...}``)
    values: Mapping[str, Any] = field(default_factory=dict)


def number(n: int) -> str:
    """``16,777,216``: every count in a rule's message."""
    return f"{n:,}"


def made(value) -> str:
    """Where a value of a program summary came from, for a message: ``from line 7 (made by
    iota)``, or ``made by iota`` where no line of the submission made it."""
    line = getattr(value, "line", None)
    return (f"from line {line} (made by {value.primitive})" if line is not None
            else f"made by {value.primitive}")


def at_line(value, lead: str = " at line") -> str:
    """`` at line 12``: where the submission wrote a loop of a program summary (its ``line``,
    or ``value`` itself where it is a line number), for a message, ``lead`` before the number;
    empty where no line of the submission is known."""
    line = value if isinstance(value, int) else getattr(value, "line", None)
    return "" if line is None else f"{lead} {line}"


def dims_text(dims) -> str:
    """``n = 1, d = 16``: dims and their extents, in the order given."""
    return ", ".join(f"{k} = {v}" for k, v in dims.items())
