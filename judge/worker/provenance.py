"""Where a gradient came from: dataflow through a traced computation (worker side, measures only).

The rule ``custom_vjp_grads`` asks that a gradient be what a custom_vjp backward rule returned.
The instrumented custom_vjp (``instrument``) passes every cotangent a backward rule returns
through one *marker* equation: a multiplication by the trace's secret factor, recorded under a
name scope whose name is random per run. This module follows the case's cotangent input
through the jaxpr, forwards, and reports whether it reaches the rule's output field along any
path that does not pass through a marker:

* an equation with a tainted input taints its outputs, except a marker, whose output is clean
  (it is what a backward rule returned);
* sub-computations are followed where their dataflow is known: calls (``jit``, ``pjit``,
  ``closed_call``, ``remat``, custom_jvp/custom_vjp bodies) map inputs to inputs and outputs to
  outputs; ``cond`` joins its branches (a tainted branch index taints everything); ``while`` and
  ``scan`` iterate over their carries to a fixed point (a tainted loop condition taints
  everything). Any other equation that holds a sub-jaxpr is *opaque*: a tainted input taints
  every output, and a marker inside it does not clean anything.

A formula (the cotangent times a mask), a ``stop_gradient`` construction, a factor taken from a
dummy rule, a cotangent routed around the rule or an intermediate smuggled out of a rule all
leave a path without a marker. The analysis is conservative: it may see a path that carries no
value (a multiplication by zero), never miss one that does.
"""

from __future__ import annotations

#: Call-like primitives whose single sub-jaxpr takes the equation's inputs and gives its outputs.
_CALL_PARAMS = ("jaxpr", "call_jaxpr", "fun_jaxpr")


def _open(jaxpr):
    """The open jaxpr of a Jaxpr or ClosedJaxpr."""
    return getattr(jaxpr, "jaxpr", jaxpr) if not hasattr(jaxpr, "eqns") else jaxpr


def _is_var(atom) -> bool:
    return hasattr(atom, "aval") and not hasattr(atom, "val")  # a Literal has .val


class Flow:
    """Taint propagation for one jaxpr; ``marker`` is the secret scope name of rule outputs."""

    def __init__(self, marker: str):
        self.marker = marker
        self.rules = 0    # marker equations met (backward-rule outputs)
        self.opaque = 0   # equations with sub-jaxprs whose dataflow is not followed

    def _is_marker(self, eqn) -> bool:
        stack = str(getattr(eqn.source_info, "name_stack", ""))
        return eqn.primitive.name == "mul" and self.marker in stack

    def run(self, jaxpr, tainted_in: list[bool]) -> list[bool]:
        """Which outputs of ``jaxpr`` depend on a tainted input along an unmarked path."""
        jaxpr = _open(jaxpr)
        tainted = {v for v, t in zip(jaxpr.invars, tainted_in) if t}
        for eqn in jaxpr.eqns:
            ins = [_is_var(v) and v in tainted for v in eqn.invars]
            if self._is_marker(eqn):
                self.rules += 1
                continue
            outs = self._equation(eqn, ins) if any(ins) else [False] * len(eqn.outvars)
            tainted.update(v for v, t in zip(eqn.outvars, outs) if t)
        return [_is_var(v) and v in tainted for v in jaxpr.outvars]

    def _equation(self, eqn, ins: list[bool]) -> list[bool]:
        name, params = eqn.primitive.name, eqn.params
        n_out = len(eqn.outvars)
        if name == "cond":
            if ins[0]:
                return [True] * n_out
            outs = [False] * n_out
            for branch in params["branches"]:
                outs = [a or b for a, b in zip(outs, self.run(branch, ins[1:]))]
            return outs
        if name == "while":
            return self._while(params, ins, n_out)
        if name == "scan":
            return self._scan(params, ins, n_out)
        for key in _CALL_PARAMS:
            sub = params.get(key)
            if sub is not None and hasattr(_open(sub), "eqns") \
                    and len(_open(sub).invars) == len(ins) and len(_open(sub).outvars) == n_out:
                return self.run(sub, ins)
        if any(_holds_jaxpr(v) for v in params.values()):
            self.opaque += 1
        return [True] * n_out

    def _while(self, params, ins, n_out):
        nc, nb = params["cond_nconsts"], params["body_nconsts"]
        cond_consts, body_consts, carry = ins[:nc], ins[nc:nc + nb], ins[nc + nb:]
        for _ in range(len(carry) + 1):
            if self.run(params["cond_jaxpr"], cond_consts + carry)[0]:
                return [True] * n_out
            new = [a or b for a, b in zip(carry, self.run(params["body_jaxpr"], body_consts + carry))]
            if new == carry:
                break
            carry = new
        return carry

    def _scan(self, params, ins, n_out):
        nc, ncarry = params["num_consts"], params["num_carry"]
        consts, carry, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
        ys = [False] * (n_out - ncarry)
        for _ in range(len(carry) + 1):
            outs = self.run(params["jaxpr"], consts + carry + xs)
            new = [a or b for a, b in zip(carry, outs[:ncarry])]
            ys = [a or b for a, b in zip(ys, outs[ncarry:])]
            if new == carry:
                break
            carry = new
        return carry + ys


def _holds_jaxpr(value) -> bool:
    if hasattr(value, "eqns") or hasattr(getattr(value, "jaxpr", None), "eqns"):
        return True
    return isinstance(value, (tuple, list)) and any(_holds_jaxpr(v) for v in value)


def trace_flow(closed, marker: str, sources: list[int], sinks: list[int]) -> dict:
    """Does any input in ``sources`` reach any output in ``sinks`` of ``closed`` without passing
    a marker? Plain data for the result channel."""
    flow = Flow(marker)
    jaxpr = _open(closed)
    tainted_in = [i in sources for i in range(len(jaxpr.invars))]
    outs = flow.run(jaxpr, tainted_in)
    return {"reached": any(outs[i] for i in sinks if i < len(outs)), "rules": flow.rules,
            "opaque": flow.opaque}


def first_unscaled(base, scaled, factor: float, max_rules: int = 16):
    """Index of the first entry of ``base`` (an array) whose value in ``scaled`` is not
    ``base * factor**n`` for some n in 1..max_rules, or None if every entry is. Zeros and
    non-finite entries must stay what they were. ``factor`` is a power of two, so honest
    scaling is exact."""
    import numpy as np

    base, scaled = np.asarray(base), np.asarray(scaled)
    if base.shape != scaled.shape:
        return ()
    wide = base.astype(np.float64)
    fixed = (wide == 0) | ~np.isfinite(wide)
    ok = fixed & ((scaled.astype(np.float64) == wide) | (np.isnan(wide) & np.isnan(scaled.astype(np.float64))))
    with np.errstate(over="ignore", invalid="ignore"):
        for n in range(1, max_rules + 1):
            ok |= ~fixed & (scaled == (wide * float(factor) ** n).astype(base.dtype))
    bad = np.argwhere(~ok)
    return tuple(int(i) for i in bad[0]) if len(bad) else None
