"""Rule ``required_primitives``: the program must contain each named primitive.

Reads the primitive counts of the traced program (nested jaxprs included) over the equations
its outputs depend on (a ``lax.scan`` whose result is thrown away does not count), with the
names a primitive has had across JAX versions (``primitive_names``). For example ``[scan]`` for
an EMA written with ``lax.scan`` (``fori_loop`` with static bounds becomes a scan too); an item
that is a list is a choice, ``[[scan, while]]``: any of them. A missing primitive that the
program holds but the output does not need is named in the message (JAX empties a loop whose
step returns its carry unchanged).

``recurrence: T`` states a role rather than a name, read on the program traced with T as a
symbol (``judge.worker.loops.loop_summary``): a live scan of length T, or a while loop that
runs T times (the one a ``fori_loop`` over ``range(T)`` becomes with a symbolic bound, or one
written by hand whose condition compares a counter with a bound made of T and numbers and whose
body steps the counter by a literal: from 0 by one while below T, from T - 1 down while at least
0, by two while below 2 T; its count is read from the start, the step and the bound together, so
a counter by two below T runs about T / 2 times and is not one), whose floating carry at step t+1
is computed from its carry at step t and from data, and reaches the output (the final carry, a
scanned output, or a ref the output reads). A scan over zero rows, without a carry, or that
copies its carry does not count; nor does a counter. It must reach the output element by
element (``judge.worker.reach``, measured at the extents it names): every element of the output
but one step's share (and the share of each step of T the loop does not run) matched to an
element of the carry at a step, computed from the step's data (which, moved, change the
output), that it depends on (as NaN flows), and to an element of the loop's results that it
shows (its value changes when that result is moved), none used twice; so a full recurrence the
output never shows (times zero, minus itself) does not count, nor does a dummy whose steps
compute nothing from their data, nor a loop whose reach was not measured. Loops of the same
length (its text: ``T``) are matched together (``Reach.together``): one scan over each column
of the output, in a Python loop over a concrete number of columns, reaches the whole output,
each element by an element of its own of one loop; two scans of one column still reach that
column only, and a closed form beside them reaches nothing.

``degenerate: {decay: [0]}`` names static values at which the recurrence is not asked for: where
a static value makes it vanish from the answer (at decay 0 the average is x itself, each row of
the output its own row of the data), no program needs a carry to compute the output, and an
honest one may show none (a step that emits the average it was given, the output rebuilt
outside as ``decay * results + (1 - decay) * x``, reads the results only times zero there). A
program traced at those values is graded by its output's values alone; every other value of the
problem is still traced and judged on its own, so a closed form kept to the degenerate values
computes there only what the values check.
"""

from __future__ import annotations

from judge.rules import polynomial, primitive_names
from judge.rules.base import Breach, TraceEvidence

ID = "required_primitives"
EVIDENCE = ("program",)
REASONS = ("missing_primitive",)


def _options(item) -> tuple[str, ...]:
    """The names one item of ``primitives`` accepts: a name, or a list of alternatives
    (``[scan, while]``: any of them)."""
    return tuple(item) if isinstance(item, list) else (item,)


def _said(item) -> str:
    return " or ".join(_options(item))


def describe(rule: dict) -> str:
    said = []
    if rule.get("primitives"):
        said.append(f"the traced program must use {', '.join(map(_said, rule['primitives']))}")
    if "recurrence" in rule:
        T = rule["recurrence"]
        said.append(f"the output must be computed by a recurrence over {T}: a lax.scan (or a "
                    f"fori_loop, or a while_loop counting to {T}) of length {T} whose carry at "
                    f"step t+1 is computed from its carry at step t and reaches every element of "
                    f"the output, each through an element of the carry of its own (a scan over "
                    f"zero rows, without a carry, that only copies its carry, or over part of the "
                    f"output beside a closed form for the rest does not count)"
                    + (f", except where {_spared_said(rule)}, where the answer needs no carry"
                       if rule.get("degenerate") else ""))
    return "; ".join(said)


def _spared_said(rule: dict) -> str:
    return " and ".join(f"{name} is {' or '.join(f'{v:g}' if isinstance(v, float) else str(v) for v in values)}"
                        for name, values in sorted(rule["degenerate"].items()))


def _spared(rule: dict, trace: TraceEvidence) -> bool:
    """Was ``trace`` traced at static values at which the recurrence degenerates (``degenerate``:
    every parameter it names at one of its values)?"""
    spared = rule.get("degenerate") or {}
    return bool(spared) and all(name in trace.values and any(_same(trace.values[name], v) for v in values)
                                for name, values in spared.items())


def _same(value, listed) -> bool:
    if isinstance(value, bool) or isinstance(listed, bool):
        return value is listed
    try:
        return float(value) == float(listed)
    except (TypeError, ValueError):
        return False


def validate(rule: dict, problem) -> list:
    found = []
    if not rule.get("primitives") and "recurrence" not in rule:
        found.append(("id", "give primitives, a recurrence, or both"))
    if "recurrence" in rule and rule["recurrence"] not in problem.symbolic_dims:
        found.append(("recurrence", f"{rule['recurrence']!r} is not one of the symbolic dims "
                                    f"({', '.join(problem.symbolic_dims) or 'none'})"))
    if rule.get("degenerate") and "recurrence" not in rule:
        found.append(("degenerate", "names where a recurrence is not asked for: give recurrence"))
    static = {p.name: p for p in problem.parameters if not p.traced and p.kind in ("float", "int")}
    for name, values in sorted((rule.get("degenerate") or {}).items()):
        if name not in static:
            found.append((f"degenerate.{name}", f"{name!r} is not a static number parameter "
                                                f"({', '.join(sorted(static)) or 'none'})"))
    return found


def evidence(rule: dict, trace: TraceEvidence, problem) -> str:
    loops = ", ".join(f"{lp.primitive} of length {lp.length}" + (" (a recurrence)" if lp.recurrent else "")
                      + (f" reaching {lp.reach.reached} of {lp.reach.outputs} output elements"
                         if lp.reach is not None else "")
                      for lp in trace.program.loops)
    return f"live loops: {loops or 'none'}"


def reads_reach(rule: dict) -> bool:
    """A recurrence reads how much of the output its loop reaches (``judge.worker.reach``)."""
    return "recurrence" in rule


def _over(length: str, T: str) -> bool:
    """Is a loop of this length one step per index of T, give or take a few: ``T``,
    ``T - 1`` (a scan over x[1:] from x[0]), or at most that (``<=T``: a while whose test
    joins ``t < T`` with a guard on the data, its reach measured on the steps it takes)?"""
    try:
        tree = polynomial.parse(length.removeprefix("<="))
    except polynomial.ExtentError:
        return False
    if polynomial.names(tree) != {T} or polynomial.degree(tree, T) != 1:
        return False
    at = [int(polynomial.evaluate(tree, {T: n})) for n in (1000, 2000)]
    return at[1] - at[0] == 1000 and abs(at[0] - 1000) <= 8


def _wide(loop, T: str, together: bool = False) -> bool:
    """Does the loop's recurrence reach the whole output element by element (``reach``), but
    for one step's share, and the share of each step of T the loop does not run (a scan over
    x[1:] from x[0])? With ``together``, its reach with the other recurrent loops of its length
    (one scan per column: each reaches its own column, the whole output together). Not
    measured: no."""
    reach = loop.reach
    at = reach.at.get(T) if reach is not None else None
    if not at:
        return False
    spared = 1 + max(0, at - reach.steps)
    reached = max(reach.reached, reach.together) if together else reach.reached
    return (reach.outputs - reached) * at <= reach.outputs * spared


def _seen(loop, T: str) -> str:
    said = f"a {loop.primitive} of length {loop.length}"
    if not loop.recurrent:
        return said + " with no recurrence in its carry"
    reach = loop.reach
    if reach is None:
        return said + " carrying a recurrence whose reach over the output could not be measured"
    if not _wide(loop, T, together=True):
        at = ", ".join(f"{k} = {v}" for k, v in reach.at.items())
        return (said + f" carrying a recurrence that reaches {reach.reached} of the output's "
                       f"{reach.outputs} elements ({at}), each by an element of its own"
                + (f", {reach.together} together with the other loops of its length"
                   if reach.together > reach.reached else ""))
    return said + " carrying a recurrence"


def _recurrence(rule: dict, trace: TraceEvidence) -> Breach | None:
    T = rule["recurrence"]
    program = trace.program
    if not program.symbolic:
        return None  # a role is read on the program traced with T as a symbol
    if _spared(rule, trace):
        return None  # the answer needs no carry at these static values: graded by values
    if any(lp.recurrent and _over(lp.length, T) and _wide(lp, T, together=True) for lp in program.loops):
        return None
    seen = ", ".join(_seen(lp, T) for lp in program.loops) or "no loop"
    return Breach("missing_primitive",
                  f"{trace.label}: no recurrence over {T} computes the output ({seen}); "
                  f"this problem requires a lax.scan of length {T} whose carry at step t+1 is "
                  f"computed from its carry at step t and reaches every element of the output, "
                  f"each through an element of the carry of its own")


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    if trace.program is None:
        return None
    if "recurrence" in rule:
        breach = _recurrence(rule, trace)
        if breach:
            return breach
    if not rule.get("primitives"):
        return None
    live = dict(trace.program.live)
    if trace.program.symbolic:
        # a fori_loop over range(T) is a while loop when T is a symbol, the scan it is when T
        # is a number: counted as that scan, and so is a while loop whose count is read
        fori = sum(1 for lp in trace.program.loops if lp.primitive == "while" and lp.length != "?")
        live["scan"] = live.get("scan", 0) + fori
    missing = [item for item in rule["primitives"]
               if not any(primitive_names.count(live, n) for n in _options(item))]
    if not missing:
        return None
    dead = [n for item in missing for n in _options(item)
            if primitive_names.count(trace.program.primitives, n)]
    return Breach("missing_primitive",
                  f"{trace.label}: no {', no '.join(map(_said, missing))} computes the output; "
                  f"this problem requires {', '.join(map(_said, rule['primitives']))}"
                  + (_dead_note(dead) if dead else ""))


def _dead_note(names: list[str]) -> str:
    """Why a primitive the program holds does not count: nothing the output needs comes out of
    it. JAX itself empties a loop whose step returns its carry unchanged (the carry is
    forwarded around the loop), so a loop the source has may compute nothing at all."""
    return (f" (the program has {' and '.join(names)}, but nothing the output needs comes out of "
            f"it: its results are thrown away, or its step returns its carry unchanged, which JAX "
            f"forwards around the loop, leaving an empty loop that computes nothing)")
