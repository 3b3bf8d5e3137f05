"""Which outputs of a ``cond`` every branch computes alike (worker side, measures only).

An output that each branch computes from the same operands by the same equations, parameters
and literals does not depend on which branch runs: the dataflow of the custom_vjp rule
(``judge.worker.provenance``) lets it pass a ``cond`` chosen by x unmixed (a residual the
forward branches hand on to the backward ones, such as the cotangent a weighted sum closes
over, moved alike in each).
"""

from __future__ import annotations

_DEPTH = 64  # how deep a fingerprint follows equations back; deeper is "unknown"


def same_in_every_branch(branches, n_out: int) -> list[int]:
    """The outputs of a ``cond`` that every branch computes alike from the same operands (the
    same equations, parameters and literals), so their value does not depend on which branch
    runs."""
    prints = [Prints(getattr(branch, "jaxpr", branch)) for branch in branches]
    found = []
    for i in range(n_out):
        each = {p.of(p.jaxpr.outvars[i]) for p in prints}
        if len(each) == 1 and None not in each:
            found.append(i)
    return found


def _is_var(atom) -> bool:
    return hasattr(atom, "aval") and not hasattr(atom, "val")  # a Literal has .val


def _holds_jaxpr(value) -> bool:
    if hasattr(value, "eqns") or hasattr(getattr(value, "jaxpr", None), "eqns"):
        return True
    return isinstance(value, (tuple, list)) and any(_holds_jaxpr(v) for v in value)


class Prints:
    """A structural fingerprint of each variable of a jaxpr: what computes it from which inputs
    (by position), or None where an equation holds a sub-jaxpr or the chain is too deep."""

    def __init__(self, jaxpr):
        self.jaxpr = jaxpr
        self.made = {id(v): eqn for eqn in jaxpr.eqns for v in eqn.outvars}
        self.inputs = {id(v): j for j, v in enumerate(jaxpr.invars)}
        self.memo: dict = {}

    def of(self, atom, depth: int = 0):
        if not _is_var(atom):
            value = getattr(atom, "val", None)
            return ("lit", str(getattr(value, "dtype", "")), repr(value))
        key = id(atom)
        if key not in self.memo:
            self.memo[key] = None
            if key in self.inputs:
                self.memo[key] = ("in", self.inputs[key])
            elif key in self.made and depth < _DEPTH:
                eqn = self.made[key]
                if not any(_holds_jaxpr(v) for v in eqn.params.values()):
                    args = tuple(self.of(v, depth + 1) for v in eqn.invars)
                    if None not in args:
                        self.memo[key] = (eqn.primitive.name, repr(sorted(eqn.params.items())),
                                          eqn.outvars.index(atom), args)
        return self.memo[key]
