"""A case's program evaluated again with only the custom_vjp instrument's factor changed
(``traced_once``: the output at factor 1, then the scaled output at the case's factor, and with
the rule's ``values`` at the two factors that move the functions' outputs, ``shift``): the
equations that do not depend on the factor keep their values from the first evaluation, and
only the others are evaluated again (``Evaluator.run(..., reuse=...)``).

Which equations depend on the factor is read at the top level of the program, a nested call,
branch or loop counting as one equation: one that reads the factor input, or a value an
equation that depends on it made, transitively. One exception: ``factor - factor``, the zero
the instrument's input markers subtract (``instrument.mark_in``), is +0.0 for every finite
factor, so it and what is made from it do not depend on the factor, where both factors are
finite (else nothing is kept); and between two factors in ``[0, shift.STILL]``, where a
function's output marker gives its operand back, what the marker makes of the factor (the
clamped factor less the factor, or compared with it) does not depend on the factor either: the
first evaluation (at 1) keeps what the moving factors' replays (``shift``) read as well.

The second evaluation gives exactly the values a whole one would. The evaluator is
deterministic: an equation given the same values computes the same values, down the same path
(NumPy or JAX, the same executable). What else decides what an equation computes is checked:

* the program, its constants, the other inputs and the equations the evaluator computes (it
  drops some that nothing reads) are those of the first evaluation, or it is evaluated whole;
* the loop budget (``stepwise.Budget``, shared by every loop of one evaluation) decides
  whether a loop is stepped or bound whole. An equation that holds a loop is taken from the
  first evaluation only where the budget left before it is the same as then (it then spends
  what it spent then); if not, the evaluation starts again, whole;
* a program with an effect (a state it reads and writes, an ordered callback, a print) is
  evaluated whole, and so is one where a value to keep is not a plain array or number (NumPy's
  own arrays, JAX's, Python's and NumPy's scalars): nothing kept is an object a submission
  could give behaviour to;
* an equation that may give other values for the same inputs, or run code of its own, with no
  effect to say so (a ``pure_callback``; ``rng_uniform``, whose generator keeps a state), or
  one that holds such an equation, depends on the factor as if it read it: it is evaluated
  again, in its place, as often as a whole evaluation evaluates it, and so is all that reads it.

What is kept is held by the ``Reuse`` of one case, in the worker's process, from the first
evaluation to the second; no submission code runs between them.
"""

from __future__ import annotations

import math
import types

import numpy

from .jaxapi import sub_jaxprs
from .shift import STILL

np = types.SimpleNamespace(**vars(numpy))  # NumPy's names before any submission ran

#: The primitives a loop budget pays for (``stepwise``).
_LOOPS = frozenset({"while", "scan"})
#: Primitives with no effect whose values are not a function of their inputs alone.
_STATEFUL = frozenset({"rng_uniform"})


class Stale(Exception):
    """The second evaluation cannot go on from the first's values: it is started again whole."""


class Reuse:
    """One case's first evaluation recorded and the next ones replayed with another factor, the
    program's last input (``begin``). Made for each case by the case runner; the evaluator
    calls it."""

    def __init__(self):
        self.program = None  # (jaxpr, consts, inputs but the factor, equations computed)
        self.split = None
        self.values: dict = {}  # var -> the first evaluation's value, for the vars to keep
        self.budgets: dict = {}  # id(eqn) -> (budget left before it, after it)
        self.complete = self.spoiled = False

    def begin(self, jaxpr, consts, args, eqns, literal, plain, splits) -> "Pass | None":
        """The hooks for one evaluation of ``jaxpr`` (``eqns``: those the evaluator computes;
        ``literal``: JAX's literal type; ``plain``: the types a kept value may have;
        ``splits``: each program's ``_split`` by id, kept by the evaluator for every case that
        runs it):
        the first records, a later one takes what does not depend on the factor from it; None
        where it is to be evaluated whole."""
        if not args or not _finite(args[-1]):
            return None
        still = _still(args[-1])
        if self.program is None:
            known = splits.get(id(jaxpr))  # (the program, kept so that its id stays its own)
            if known is None or known[0] is not jaxpr:
                known = splits[id(jaxpr)] = (jaxpr, _split(jaxpr, literal, True),
                                             _split(jaxpr, literal, False))
            if known[1] is None or not still:
                return None
            self.split = known[1:]
            # recorded as a still factor's split, keeping what a moving one's replay reads too
            dependent, keep, loops = known[1]
            self.program = (jaxpr, consts, list(args[:-1]), list(eqns))
            return Pass(self, (dependent, keep | known[2][1], loops), frozenset(plain),
                        replaying=False)
        if not self.complete or self.spoiled:
            return None
        first, first_consts, first_args, first_eqns = self.program
        if jaxpr is not first or not _identical(consts, first_consts) or not _identical(eqns, first_eqns):
            return None
        if len(args) - 1 != len(first_args) or not all(
                _same(a, b) for a, b in zip(args[:-1], first_args)):
            return None
        return Pass(self, self.split[0 if still else 1], frozenset(plain), replaying=True)


class Pass:
    """The evaluator's hooks for one evaluation: ``kept`` before an equation (its outputs from
    the first evaluation, or None: compute it), ``done`` after one computed, ``finish`` at
    the end."""

    def __init__(self, reuse: Reuse, split, plain: frozenset, replaying: bool):
        self.reuse, self.plain, self.replaying = reuse, plain, replaying
        self.dependent, self.keep, self.loops = split
        self.before = None

    def kept(self, eqn, budget) -> list | None:
        """The outputs of ``eqn`` that the rest reads, where the first evaluation's serve (the
        others are not needed); None where it is to be computed. Raises ``Stale`` where the
        loop budget left is not the first evaluation's."""
        if id(eqn) in self.dependent:
            return None
        left = budget.left if budget else None
        if not self.replaying:
            self.before = left
            return None
        if id(eqn) in self.loops:
            before, after = self.reuse.budgets[id(eqn)]
            if left != before:
                raise Stale()
            if budget:
                budget.left = after
        values = self.reuse.values
        return [(v, values[v]) for v in eqn.outvars if v in self.keep]

    def done(self, eqn, outs, budget) -> None:
        """``eqn`` computed ``outs``: in the first evaluation, kept where the rest reads them."""
        if self.replaying or id(eqn) in self.dependent:
            return
        reuse = self.reuse
        if id(eqn) in self.loops:
            reuse.budgets[id(eqn)] = (self.before, budget.left if budget else None)
        for var, value in zip(eqn.outvars, outs):
            if var in self.keep:
                if type(value) not in self.plain:
                    reuse.spoiled = True  # an object of another kind: the next is evaluated whole
                reuse.values[var] = value

    def finish(self) -> None:
        """The evaluation ended: the first one's values can serve the next."""
        if not self.replaying:
            self.reuse.complete = True


def _split(jaxpr, literal, still: bool):
    """(ids of the equations that depend on the factor, the variables to keep: made by the
    others and read by those or by the outputs, ids of the others that hold a loop); None
    where the program has an effect. With ``still``, between factors in ``[0, shift.STILL]``:
    there a function's output marker (``instrument``) gives its operand, and what the factor
    within those bounds (``clamp``) less the factor, or compared with it, makes is the same."""
    if getattr(jaxpr, "effects", None) or not jaxpr.invars:
        return None
    factor = jaxpr.invars[-1]
    moved, clamped = {factor}, set()
    dependent, loops, read = set(), set(), set()
    for eqn in jaxpr.eqns:
        if eqn.effects:
            return None
        ins = [v for v in eqn.invars if not isinstance(v, literal)]
        name = eqn.primitive.name
        zero = name == "sub" and len(ins) == 2 and ins[0] is factor and ins[1] is factor
        if name == "clamp" and ins == [factor] and eqn.invars[1] is factor:
            clamped.update(eqn.outvars)
        zero = zero or (still and name in ("sub", "ne") and len(ins) == 2 and ins[0] in clamped
                        and ins[1] is factor)
        names = _held(eqn)
        if (not zero and any(v in moved for v in ins)) or any(_impure(n) for n in names):
            dependent.add(id(eqn))
            moved.update(eqn.outvars)
            read.update(ins)
        elif names & _LOOPS:
            loops.add(id(eqn))
    read.update(v for v in jaxpr.outvars if not isinstance(v, literal))
    made = {v for eqn in jaxpr.eqns if id(eqn) not in dependent for v in eqn.outvars}
    return dependent, made & read, loops


def _impure(name: str) -> bool:
    """Whether a primitive may give other values for the same inputs, or run code of its own,
    with no effect to say so: it is evaluated each time, in its place, as a whole evaluation
    evaluates it (a callback; ``rng_uniform``, whose generator keeps a state)."""
    return name in _STATEFUL or "callback" in name


def _held(eqn) -> set:
    """The names of the primitives of ``eqn`` and of every program nested in it."""
    names = {eqn.primitive.name}
    stack = [sub for param in eqn.params.values() for sub in sub_jaxprs(param)]
    seen = set()
    while stack:
        body = stack.pop()
        if id(body) in seen:
            continue
        seen.add(id(body))
        for inner in getattr(body, "eqns", ()):
            names.add(inner.primitive.name)
            stack.extend(sub for param in inner.params.values() for sub in sub_jaxprs(param))
    return names


def _still(factor) -> bool:
    return 0.0 <= float(factor) <= STILL


def _finite(factor) -> bool:
    try:
        return math.isfinite(float(factor))
    except Exception:  # noqa: BLE001 - not a number: evaluated whole
        return False


def _identical(these, those) -> bool:
    return len(these) == len(those) and all(a is b for a, b in zip(these, those))


def _same(a, b) -> bool:
    """Whether two inputs are the same values: the same object, or arrays of one type, dtype,
    shape and bytes."""
    if a is b:
        return True
    if type(a) is not type(b) or type(a) is not np.ndarray:
        return False
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
