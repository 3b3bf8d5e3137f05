"""Calls, branches and loops of a traced program evaluated operation by operation, as
``jax.disable_jit`` runs them (``Evaluator.run(..., jit_inlined=True)``).

``eval_jaxpr`` binds a jitted call, a ``checkpoint``, a ``cond``, a ``while`` or a ``scan``
whole: XLA compiles it as a program of its own for each new input shape, which is most of what a
case with such a program costs, and which no other case or submission shares. Evaluated here,
each operation of the body is bound alone (or computed in NumPy), and single operations are what
the compilation cache holds and the cases share. The values are those of the program run under
``jax.disable_jit``, where JAX runs each body as Python does:

* a call (``jit``, ``checkpoint``/``remat``, ``closed_call``, ``core_call``): its body, once;
* ``cond``: the branch its index picks (an index outside the branches goes to JAX);
* ``while``: its condition, then its body, while the condition holds;
* ``scan``: its body once per element of its inputs, in order (from the end when ``reverse``),
  the carry passed along and the outputs stacked.

Loops are evaluated step by step only while the equations their steps evaluate (a jitted call
in a body counted by its own equations), all loops of one evaluation together (nested ones
included), stay within ``LOOP_WORK`` (a ``Budget``): past
that, a ``while`` hands its current state to JAX, which runs the rest compiled (the same loop,
from where it stands), and a ``scan`` the budget cannot pay for is bound whole from the start.
So stepping costs a program at most a few thousand operations more than compiling its loops.
A loop whose carried values or inputs are not plain arrays (a PRNG key, say) is bound whole
too, and so is a ``scan`` that slices and stacks more than ``STACKED`` elements (stepping would
hold them twice) or whose parameters describe its operands in a form not read here.
"""

from __future__ import annotations

import contextlib
import types

import numpy

from . import jaxapi
from .program import sub_jaxprs

#: NumPy's names as they were when the worker loaded this module, before any submission.
np = types.SimpleNamespace(**vars(numpy))

#: The call primitives, by the parameter that holds their body.
CALLS = {"jit": "jaxpr", "pjit": "jaxpr", "checkpoint": "jaxpr", "remat": "jaxpr", "remat2": "jaxpr",
         "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
         **{name: "call_jaxpr" for name in jaxapi.INLINED_CALLS}}
#: Calls whose body JAX itself evaluates operation by operation when bound on concrete values
#: (custom_jvp and custom_vjp calls): evaluated so with or without ``jit_inlined``.
ALWAYS = frozenset(jaxapi.INLINED_CALLS)
#: Everything evaluated here under ``jit_inlined``.
STEPPED = frozenset(CALLS) | {"cond", "while", "scan"}
#: Equations the loops of one evaluation may evaluate step by step (steps times the equations
#: of their bodies).
LOOP_WORK = 4096
#: Elements a stepped scan may slice and stack, its scanned inputs and its outputs together:
#: its steps' outputs are held beside the stacked ones, twice what the compiled scan holds, so
#: a larger one is bound whole (as the evaluator leaves arrays of more than 2**20 elements to
#: JAX).
STACKED = 1 << 20


class Budget:
    """What is left of ``LOOP_WORK`` for one evaluation; ``size`` counts what one step of a
    loop's body costs."""

    def __init__(self, left: int = LOOP_WORK):
        self.left = left
        self._sizes: dict = {}  # id(jaxpr) -> (jaxpr, its equations, nested ones included)

    def size(self, jaxpr) -> int:
        """The equations of ``jaxpr`` and of every program nested in it (a jitted call's body
        counts its equations, not one), each nested program once per equation holding it."""
        known = self._sizes.get(id(jaxpr))
        if known is None:
            count = len(jaxpr.eqns) + sum(self.size(sub) for eqn in jaxpr.eqns
                                          for param in eqn.params.values() for sub in sub_jaxprs(param))
            known = self._sizes[id(jaxpr)] = (jaxpr, count)  # the jaxpr kept: its id stays its own
        return known[1]

    def spend(self, work: int) -> bool:
        """Take ``work`` equations from the budget; False (nothing taken) where it cannot."""
        if work > self.left:
            return False
        self.left -= work
        return True


def _body(value):
    """(jaxpr, consts) of a closed or open jaxpr, or None."""
    inner = getattr(value, "jaxpr", None)
    if inner is not None and hasattr(inner, "eqns"):
        return inner, list(getattr(value, "consts", ()))
    if hasattr(value, "eqns"):
        return value, []
    return None


def _plain(avals) -> bool:
    """Whether every value is an array NumPy holds as it is (not a PRNG key or a token)."""
    return all(isinstance(getattr(aval, "dtype", None), np.dtype) and hasattr(aval, "shape")
               for aval in avals)


def evaluate(eqn, values, run, bind, budget: Budget | None):
    """The outputs of ``eqn`` on ``values``, its body evaluated by ``run(jaxpr, consts, *args)``;
    ``bind(values)`` binds the equation whole; a loop's steps are paid from ``budget`` (None:
    not under ``jit_inlined``, only the calls in ``ALWAYS`` are evaluated here). None where the
    equation is not one of these or must go to JAX whole."""
    if budget is None and eqn.primitive.name not in ALWAYS:
        return None
    manager = getattr(getattr(eqn, "ctx", None), "manager", None)
    with manager if manager is not None else contextlib.nullcontext():  # as ``eval_jaxpr`` binds it
        return _evaluate(eqn, values, run, bind, budget)


def _evaluate(eqn, values, run, bind, budget: Budget):
    name = eqn.primitive.name
    if name in CALLS:
        body = _body(eqn.params.get(CALLS[name]))
        if body is None or len(body[0].invars) != len(values):
            return None
        return run(body[0], body[1], *values)
    if name == "cond":
        return _cond(eqn, values, run)
    if name == "while":
        return _while(eqn, values, run, bind, budget)
    if name == "scan":
        return _scan(eqn, values, run, budget)
    return None


def _cond(eqn, values, run):
    branches = [_body(b) for b in eqn.params.get("branches", ())]
    if not branches or any(b is None for b in branches):
        return None
    try:
        index = int(np.asarray(values[0]))
    except Exception:  # noqa: BLE001 - not a concrete integer: JAX's to bind
        return None
    if not 0 <= index < len(branches):
        return None
    jaxpr, consts = branches[index]
    if len(jaxpr.invars) != len(values) - 1:
        return None
    return run(jaxpr, consts, *values[1:])


def _while(eqn, values, run, bind, budget: Budget):
    params = eqn.params
    cond, body = _body(params.get("cond_jaxpr")), _body(params.get("body_jaxpr"))
    if cond is None or body is None or not _plain(v.aval for v in eqn.outvars):
        return None
    cn, bn = int(params["cond_nconsts"]), int(params["body_nconsts"])
    cond_consts, body_consts, carry = values[:cn], values[cn:cn + bn], list(values[cn + bn:])
    per_step = max(1, budget.size(cond[0]) + budget.size(body[0]))
    while True:
        if not budget.spend(per_step):  # the rest of the loop, compiled, from where it stands
            return bind([*cond_consts, *body_consts, *carry])
        holds = run(cond[0], cond[1], *cond_consts, *carry)[0]
        if not bool(np.asarray(holds)):
            return carry
        carry = list(run(body[0], body[1], *body_consts, *carry))


def _scan_layout(params, operands: int, results: int):
    """(constants, carries) of a scan whose operands are its constants, carries and scanned
    arrays, in that order, and whose results are its carries then its stacked outputs; None
    where JAX's parameters describe anything else. (JAX 0.11 describes them as flat trees,
    ``ft_in`` and ``ft_out``: their order is checked, not assumed.)"""
    if "num_consts" in params:
        return int(params["num_consts"]), int(params["num_carry"])
    try:
        consts, carry, xs = (list(p) for p in params["ft_in"].update(list(range(operands))).unpack())
        carry_out, ys = (list(p) for p in params["ft_out"].update(list(range(results))).unpack())
    except Exception:  # noqa: BLE001 - parameters of another form: the scan is bound whole
        return None
    if consts + carry + xs != list(range(operands)) or carry_out + ys != list(range(results)) \
            or len(carry_out) != len(carry):
        return None
    return len(consts), len(carry)


def _scan(eqn, values, run, budget: Budget):
    params = eqn.params
    body, layout = _body(params.get("jaxpr")), _scan_layout(params, len(values), len(eqn.outvars))
    if body is None or layout is None:
        return None
    (consts_n, carry_n), length = layout, int(params["length"])
    if length < 0:
        return None
    xs_vars = eqn.invars[consts_n + carry_n:]
    if not _plain(v.aval for v in (*xs_vars, *eqn.outvars)):
        return None
    # the scanned inputs, held as NumPy arrays to be sliced, and the stacked outputs
    held = sum(int(np.prod(v.aval.shape)) for v in (*xs_vars, *eqn.outvars[carry_n:]))
    if held > STACKED:
        return None
    consts, carry = values[:consts_n], list(values[consts_n:consts_n + carry_n])
    xs = [np.asarray(x) for x in values[consts_n + carry_n:]]
    if any(x.ndim == 0 or x.shape[0] != length for x in xs):
        return None
    if not budget.spend(length * max(1, budget.size(body[0]))):
        return None
    steps = range(length - 1, -1, -1) if params.get("reverse") else range(length)
    ys: dict[int, list] = {}
    for i in steps:
        out = run(body[0], body[1], *consts, *carry, *[x[i] for x in xs])
        carry, ys[i] = list(out[:carry_n]), out[carry_n:]
    stacked = []
    for k, var in enumerate(eqn.outvars[carry_n:]):
        aval = var.aval
        if length == 0:
            stacked.append(np.zeros(aval.shape, aval.dtype))
        else:
            stacked.append(np.stack([np.asarray(ys[i][k], dtype=aval.dtype) for i in range(length)]))
    return carry + stacked
