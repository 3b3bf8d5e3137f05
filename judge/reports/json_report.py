"""The JSON report. Its keys are a contract (tests pin them); ``version`` changes if they do.

Version 2 added ``source_gate``: false when the submission was graded with the source gate off.

Version 3 added, on every case, ``number``: its position in the spec's ``examples:`` or
``hidden:`` list (the ``N`` of ``example N`` and ``hidden N`` in every report; ``index`` stays
the position among all cases, examples first). A failing **example** also has ``name``,
``inputs``, ``probe`` (the cotangent/tangent the judge differentiated along, null without
probes), ``expected`` and ``got`` (null when there was no output to compare). A hidden case never
has them: hidden cases carry only the keys of version 2 and ``number``. ``expected`` and ``got``
have the shape a submission returns: the array itself for an ``array`` output, the dict of fields
for a ``dict`` output; when a derivative probe differs, both are ``{"vjp": [...]}`` (or
``"jvp"``).

Values that are NaN or infinite (in ``inputs``, ``expected`` and ``got``) are the strings
``"NaN"``, ``"Infinity"`` and ``"-Infinity"``, so the report is strict JSON.

Version 4 added the points (``judge.grade.scoring``): ``score`` and ``max_score`` (numbers),
``zeroed_by`` (null, or ``{"index", "verdict"}`` of the first RJ or CE case, which makes the
score 0) and ``groups``: one ``{"name", "score", "max_score", "cases"}`` per scoring group that
has a graded case, ``cases`` being the ``index`` of each of its cases. Without ``scoring`` in the
spec each case is a group worth one point, named as every report names it (``example 0
(name)``, ``hidden 3``); a hidden case is never named. Version 4 also gives a failing
example's ``expected`` in the shape a submission returns, as ``got`` is (version 3 wrapped an
``array`` output's as ``{"value": [...]}``).

Version 5 added, on a failing example, ``differences``: the entries that differ, as the text
report lists them, each ``{"field", "index", "got", "expected"}`` (``field`` names the output
field or the probe, ``index`` is the entry's position as a list of integers, empty for a
scalar). At most the first few are listed (the ``message`` says how many differ); the list is
empty when there was no output to compare.

Version 6 added what an example printed: an example case (passing or failing, never a hidden
one) whose code wrote to stdout or stderr (``print``, ``jax.debug.print``, a warning) has
``stdout`` and ``stderr``, strings, each cut to its first lines (``judge.reports.printed``);
an example that printed nothing has neither. ``tracer_note`` (a string) is present only when
that output shows a traced value (``JitTracer(...)``): why, and to use ``jax.debug.print``.

``hint`` (a string) is present only when the submission fails and its outputs on the examples
equal those of a known mistake that carries a hint (``judge.grade.hints``).

``regraded`` (a list of reason codes) is present only when earlier attempts ended with an
internal error and the submission was graded again (``judge.grade.regrade``): the reason of each
such attempt, in order; the report is the last attempt's.
"""

from __future__ import annotations

import json
import math

from judge.grade import scoring
from judge.grade.verdicts import GradeResult, shown_time
from judge.problem.model import case_number
from judge.reports import printed

VERSION = 6


def _case(c) -> dict:
    out = {"index": c.index, "number": case_number(c),
           "visibility": c.visibility, "verdict": c.verdict.value, "reason": c.reason,
           "message": c.message, "time_s": None if shown_time(c) is None else round(shown_time(c), 4)}
    if c.visibility == "example" and c.verdict.value != "AC":  # examples are public; never hidden
        diff = c.details.get("diff") or {}
        out.update(name=c.name, inputs=c.details.get("inputs", diff.get("inputs")),
                   probe=c.details.get("probe"),
                   # what the diff compared, else the expected output: in the shape of got
                   expected=diff["expected"] if "expected" in diff else c.details.get("expected"),
                   got=diff.get("got"),
                   differences=[{"field": diff.get("field"), "index": list(p["index"]),
                                 "got": p["got"], "expected": p["expected"]}
                                for p in diff.get("positions", ())])
    shown = printed.of_case(c)
    if shown:
        out.update(stdout=shown.get("stdout", ""), stderr=shown.get("stderr", ""))
    return out


def to_dict(result: GradeResult) -> dict:
    return {
        "version": VERSION,
        "problem": result.problem,
        "submission": result.submission,
        "verdict": result.verdict.value,
        "reason": result.reason,
        "message": result.message,
        "time_s": round(result.time_s, 4),
        "source_gate": result.source_gate,
        "cases": [_case(c) for c in result.cases],
        **_score(scoring.of(result)),
        **({"hint": result.hint} if result.hint else {}),
        **({"tracer_note": note} if (note := printed.tracer_note(result)) else {}),
        **({"regraded": list(result.regraded)} if result.regraded else {}),
    }


def _score(s: scoring.Score) -> dict:
    zeroed = s.zeroed_by
    return {"score": s.score, "max_score": s.max_score,
            "zeroed_by": {"index": zeroed.index, "verdict": zeroed.verdict.value} if zeroed else None,
            "groups": [{"name": g.name, "score": g.score, "max_score": g.max_score,
                        "cases": [c.index for c in g.cases]} for g in s.groups]}


def finite(value):
    """``value`` with NaN and the infinities as the strings "NaN", "Infinity" and "-Infinity":
    JSON has no literal for them, and strict parsers refuse Python's."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def render(result: GradeResult) -> str:
    return json.dumps(finite(to_dict(result)), indent=2, allow_nan=False) + "\n"
