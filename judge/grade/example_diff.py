"""What a failing example's report shows of its data: inputs, expected and got as plain JSON
data, kept small whatever the submission returned (an array as its shape and first entries, a
dict or list as its first keys or items), and the positions that differ."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from judge.grade import compare
from judge.problem import casefile, layout

#: Entries of one array, and of one whole value, that an example's diff shows.
DIFF_ENTRIES, DIFF_TOTAL = 100, 1000
#: Keys of a dict (items of a list) an example's diff shows at most.
DIFF_KEYS = 20


def plain(value, budget: list | None = None):
    """``value`` as JSON data for an example's diff: an array of more than DIFF_ENTRIES entries
    (or past DIFF_TOTAL entries in all) as its shape, dtype and first entries."""
    budget = [DIFF_TOTAL] if budget is None else budget
    if isinstance(value, np.ndarray):
        shown = max(0, min(DIFF_ENTRIES, budget[0]))
        budget[0] -= min(value.size, shown)
        if value.size == 0 and value.ndim > 1:  # its rows would be walked, however many
            return {"shape": list(value.shape), "dtype": str(value.dtype), "first": []}
        if value.size <= shown:  # float32 values with their shortest repr: 0.3, not 0.300000011...
            return casefile.plain_list(value)
        return {"shape": list(value.shape), "dtype": str(value.dtype),
                "first": casefile.plain_list(value.reshape(-1)[:shown])}
    if isinstance(value, dict):  # at most DIFF_KEYS keys, and how many more there are
        shown = {k: plain(v, budget) for k, v in list(value.items())[:DIFF_KEYS]}
        if len(value) > DIFF_KEYS:
            shown["..."] = f"{len(value) - DIFF_KEYS} more keys"
        return shown
    if isinstance(value, (list, tuple)):
        items = [plain(v, budget) for v in value[:DIFF_KEYS]]
        return items + ([f"... {len(value) - DIFF_KEYS} more items"] if len(value) > DIFF_KEYS else [])
    if isinstance(value, (bool, int, float)):
        return value
    return repr(value)


def as_returned(details: dict, problem, case=None, planned=None) -> dict:
    """A failing example's ``details`` with ``expected`` in the shape a submission returns, as
    ``got`` is: the array itself for an ``array`` output (not ``{"value": ...}``), the dict of
    fields for a ``dict`` output. A probe's diff compares ``{"vjp": ...}`` with ``{"vjp": ...}``.
    ``planned``: the case as a grade's plan resolved it (``judge.grade.plan.CasePlan``), whose
    slots and nested probe inputs are read instead of resolved again."""
    if planned is not None:
        case = planned.case
    if case is not None and "probe" in details and case.probe_inputs:  # nested, as the spec has it
        nested = (planned.probe_args if planned is not None
                  else layout.nest(layout.input_slots(problem, case.inputs), dict(case.probe_inputs)))
        details = {**details, "probe": plain(nested)}
    if problem.output_kind != "array":
        if case is None or not layout.nested(problem):
            return details
        # trees: the expected output nested as the submission returns it, beside what it returned
        slots = [replace(s, path=s.returned) for s in (planned.outputs if planned is not None
                                                       else layout.output_slots(problem, case.inputs))]
        shown = layout.nest(slots, dict(case.expected))
        out = dict(details)
        if "expected" in out:
            out["expected"] = plain(shown)
        if isinstance(out.get("diff"), dict):
            out["diff"] = {**out["diff"], "expected": plain(shown)}
        return out
    out = dict(details)
    if isinstance(out.get("expected"), dict) and "value" in out["expected"]:
        out["expected"] = out["expected"]["value"]
    diff = out.get("diff")
    if diff and isinstance(diff.get("expected"), dict) and "value" in diff["expected"]:
        expected = diff["expected"]  # a probe's result is any field but the value
        shown = {diff["field"]: expected.get(diff["field"])} if diff.get("field") not in (None, "value") \
            else expected["value"]
        out["diff"] = {**diff, "expected": shown}
    return out


def diff(case, output, mismatch: compare.Mismatch) -> dict:
    """What an example's report shows: inputs, expected, got (large arrays as their shape and
    first entries) and the differing positions."""
    return {
        "inputs": plain(dict(case.inputs)),
        "expected": plain(dict(case.expected)),
        "got": plain(output),
        "field": mismatch.field,
        "positions": [{"index": list(i), "got": g, "expected": e} for i, g, e in mismatch.positions],
    }
