"""The live loops of a traced program as its summary lists them (``program.summarize``): each
loop's entry where a walk of the program finds it, held by the loops around it, and the reach
of each recurrent loop over a symbolic dim (``reach``). Runs in the worker; decides nothing."""

from __future__ import annotations

from typing import NamedTuple

from . import protocol, reach, reach_branch, reach_count, symbolic as _symbolic


class Listed(NamedTuple):
    """A live loop as a walk lists it: its summary (``loops.loop_summary``, shared by every
    place that lists the same loop), its equation, the index of the loop holding it in the same
    list (None: held by whatever holds the walk), and whether a ``cond`` lies between the two
    (the branch that holds it may run at a few of that loop's trips only)."""

    summary: dict
    eqn: object
    within: int | None
    guarded: bool


def listed_loops(listed: list) -> tuple[list, list]:
    """The summary's ``loops`` (each a fresh dict, with ``within`` and ``guarded`` where it is
    held), at most ``protocol.MAX_LOOPS``, and their equations in the same order."""
    loops, eqns = [], []
    for entry in listed[:protocol.MAX_LOOPS]:
        loop = dict(entry.summary)
        if entry.within is not None:
            loop["within"] = entry.within
            if entry.guarded:
                loop["guarded"] = True
        loops.append(loop)
        eqns.append(entry.eqn)
    return loops, eqns


def reaches(closed, loops: list, eqns: list, symbols: dict, outputs: int | None) -> None:
    """Each recurrent loop's ``reach`` (``reach.measure``) on ``closed`` made concrete at the
    measurement's extents; ``None`` where it cannot be measured. Each reach also says how many
    elements the measured loops of its length (its text, ``T``) reach together (``together``):
    one scan per column of the output, in a Python loop over the columns, reaches one column
    each and the whole output together; each output element still matched to an element of
    its own of some loop's carry and results (``reach_count.together``), so that two loops
    over the same column reach that column only. A loop behind a ``cond`` whose cases may take
    several branches (``reach_branch``) counts alone."""
    concrete, measured, edges = None, {}, {}
    for loop, eqn in zip(loops, eqns):
        if not loop["recurrent"] or loop["length"].isdigit() or loop["length"] == "?":
            continue  # a recurrence over no dim: nothing to measure for a rule over one
        if id(eqn) in measured:  # a body's loop listed at each place the body is called
            loop["reach"] = measured[id(eqn)]
            continue
        loop["reach"] = None
        path = reach.path_to(closed.jaxpr, eqn)
        if path is None:
            continue
        try:
            at = reach.extents(symbols)
            if concrete is None:
                concrete = _symbolic.instantiate(closed, at)
            found: list = []
            count = len(closed.jaxpr.outvars) if outputs is None else outputs
            taken = reach_branch.taken(closed, path, symbols)
            loop["reach"] = reach.measure(concrete, path, set(loop["carries"]), count, at, loop["length"],
                                          found, taken, reach_branch.fixed(closed, path, taken, count))
            if loop["reach"] is not None and found:
                edges[id(eqn)] = (loop["length"], loop["reach"]["steps"], found[0])
        except Exception:  # noqa: BLE001 - a program the measurement cannot run: not measured
            loop["reach"] = None
        measured[id(eqn)] = loop["reach"]
    _together(loops, eqns, edges)


def _together(loops: list, eqns: list, edges: dict) -> None:
    """Each measured reach's ``together``: the reach of the loops of its length and count of
    steps taken together (``reach_count.together``), its own where it has no pairs kept."""
    groups: dict = {}
    for key, (length, steps, found) in edges.items():
        groups.setdefault((length, steps), {})[key] = found
    for loop, eqn in zip(loops, eqns):
        found = loop.get("reach")
        if found is None:
            continue
        found["together"] = found["reached"]
        if id(eqn) in edges:
            length, steps, _ = edges[id(eqn)]
            group = list(groups[(length, steps)].values())
            if len(group) > 1 and len({g[0].shape[1] for g in group} | {g[1].shape[1] for g in group}) == 1:
                found["together"] = max(found["reached"], reach_count.together(group))
