"""Where a gradient came from: dataflow through a traced computation (worker side, measures only).

The rule ``custom_vjp_grads`` asks that a gradient be what a custom_vjp backward rule returned.
The instrumented custom_vjp (``instrument``) numbers each custom_vjp function and leaves two
kinds of *marker* equations in the trace, under name scopes whose prefix is random per run:
where function n is applied to a traced array, a multiplication by factor / factor, exactly 1
(``<prefix>in<n>``); and
where its backward rule returns a cotangent, a multiplication by the trace's factor
(``<prefix>out<n>``). Two passes over the jaxpr, forwards:

1. from the case's primal inputs (``x``): which functions were applied to a value depending on
   them (their input marker is reached);
2. from the cotangent input: does it reach the rule's output field along any path that does not
   pass through an output marker of one of those functions? And does it reach it at all (a
   constant scaled by a dummy rule's factor does not)?

In each pass an equation with a tainted input taints its outputs (in pass 2, except a bound
output marker, whose output is clean: it is what a backward rule returned). A marker counts
only where it multiplies by the factor input itself, or by factor / factor for an input marker
(followed through casts and into sub-computations), which submission code never holds: knowing
the scope names is not enough to forge one.
Sub-computations are followed where their dataflow is known: calls (``jit``, ``pjit``,
``closed_call``, ``remat``, custom_jvp/custom_vjp bodies) map inputs to inputs and outputs to
outputs; ``cond`` joins its branches (a tainted branch index taints everything); ``while`` and
``scan`` iterate over their carries to a fixed point (a tainted loop condition taints
everything). Any other equation that holds a sub-jaxpr is *opaque* (``reduce``, whose reducer
takes accumulators and elements, not the equation's operands, is one): a tainted input taints
every output, and a marker inside it does not clean anything. Mutable refs (``jax.new_ref``) are
one shared pool: a tainted write anywhere taints every read anywhere. An output marker counts
only in the scope a backward rule runs in, not differentiated again (``jvp`` of a rule's output
would multiply a tangent the submission chose by the factor).

A formula (the cotangent times a mask), a ``stop_gradient`` construction, a factor taken from a
dummy rule, a cotangent routed around the rule, an intermediate smuggled out of a rule, or a
rule of a dummy function applied only to constants all leave a path without a bound marker. The analysis is conservative: it may see a path that carries no
value (a multiplication by zero), never miss one that does.
"""

from __future__ import annotations

import functools
import os
import re

#: Call primitives (their names across the JAX versions supported) and the parameter holding the
#: sub-jaxpr that takes the equation's inputs and gives its outputs. Only these are followed: a
#: primitive such as ``reduce`` also holds a ``jaxpr``, but its inputs are not the equation's.
_CALLS = {"jit": "jaxpr", "pjit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
          "remat2": "jaxpr", "checkpoint": "jaxpr", "remat": "jaxpr", "named_call": "call_jaxpr",
          "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr",
          "custom_vjp_call_jaxpr": "fun_jaxpr"}
#: Primitives that give the factor back unchanged in value (a cast, a broadcast under vmap).
_SAME_VALUE = frozenset({"convert_element_type", "broadcast_in_dim", "reshape", "squeeze",
                         "expand_dims", "copy", "copy_p"})


def _open(jaxpr):
    """The open jaxpr of a Jaxpr or ClosedJaxpr."""
    return getattr(jaxpr, "jaxpr", jaxpr) if not hasattr(jaxpr, "eqns") else jaxpr


def _is_var(atom) -> bool:
    return hasattr(atom, "aval") and not hasattr(atom, "val")  # a Literal has .val


class Flow:
    """Taint propagation through one jaxpr. ``marker`` is the secret scope prefix of the
    instrument's markers. With ``bound`` None, the flow records in ``applied`` the custom_vjp
    functions applied to a tainted value and cleans nothing; otherwise the output markers of
    the functions in ``bound`` clean what passes through them."""

    def __init__(self, marker: str, bound: set[int] | None = None, refs: bool = True,
                 ref_taint: bool = False, made: set[int] | None = None):
        self.pattern = re.compile(re.escape(marker) + r"(in|out)(\d+)")
        self.made = made            # ids of the variables the instrument's output markers defined
        self.bound = bound
        self.refs = refs            # False: a read from a mutable ref is never tainted
        self.ref_taint = ref_taint  # a tainted value was written into some ref
        self.applied: set[int] = set()
        self.rules = 0    # output markers met that cleaned (backward-rule outputs)
        self.opaque = 0   # equations with sub-jaxprs whose dataflow is not followed

    def _marker(self, eqn):
        """("in" | "out", function number) for a marker equation, else None. An input marker
        transposed (the backward pass of the multiplication by 1) is not an application. An
        output marker counts in the scope a backward rule runs in (``transpose(jvp(M))``, or
        ``M`` where the transformations are named on enclosing scopes; under ``vmap`` too), not
        differentiated again: ``jvp(transpose(jvp(M)))`` multiplies a tangent the submission
        chose by the factor. (A rule the submission calls by hand, ``f.bwd(res, formula)``, is
        never marked: see ``instrument``.)"""
        if eqn.primitive.name != "mul":
            return None
        for segment in reversed(str(getattr(eqn.source_info, "name_stack", "")).split("/")):
            found = self.pattern.search(segment)
            if found:
                kind = found.group(1)
                if kind == "in" and segment.startswith("transpose("):
                    return None
                if kind == "out" and _transforms(segment, found.group(0)) not in ((), ("transpose", "jvp")):
                    return None  # a derivative of the marker (jvp(...)), not the rule's output
                if kind == "out" and not _made_by_the_instrument(eqn):
                    return None  # the submission's own multiplication, under a copied scope
                if kind == "out" and self.made is not None \
                        and not any(id(v) in self.made for v in eqn.outvars):
                    return None  # not the very equation the instrument made (a forgery inside a rule)
                return kind, int(found.group(2))
        return None

    def run(self, jaxpr, tainted_in: list[bool], factor_in: list[bool]) -> list[bool]:
        """Which outputs of ``jaxpr`` depend on a tainted input along an unmarked path.
        ``factor_in`` says which inputs are the trace's factor itself: an output marker counts
        only where it multiplies by the factor, which no submission code can hold."""
        jaxpr = _open(jaxpr)
        tainted = {v for v, t in zip(jaxpr.invars, tainted_in) if t}
        factor = {v for v, f in zip(jaxpr.invars, factor_in) if f}
        unit: set = set()  # factor / factor, what an input marker multiplies by
        for eqn in jaxpr.eqns:
            ins = [_is_var(v) and v in tainted for v in eqn.invars]
            fac = [_is_var(v) and v in factor for v in eqn.invars]
            one = [_is_var(v) and v in unit for v in eqn.invars]
            if eqn.primitive.name in _SAME_VALUE and fac and fac[0]:
                factor.update(eqn.outvars)
            if eqn.primitive.name in _SAME_VALUE and one and one[0]:
                unit.update(eqn.outvars)
            if eqn.primitive.name == "div" and len(fac) == 2 and all(fac):
                unit.update(eqn.outvars)
            mark = self._marker(eqn)
            if mark and mark[0] == "in" and any(ins) and any(one):
                self.applied.add(mark[1])
            if mark and mark[0] == "out" and self.bound is not None and mark[1] in self.bound \
                    and any(fac):
                self.rules += 1
                continue
            if self._touches_ref(eqn):  # new_ref, get, swap, addupdate, freeze, ...
                if any(ins):
                    self.ref_taint = True
                outs = [self.refs and (any(ins) or self.ref_taint)] * len(eqn.outvars)
            else:
                outs = self._equation(eqn, ins, fac) if any(ins) else [False] * len(eqn.outvars)
            tainted.update(v for v, t in zip(eqn.outvars, outs) if t)
        return [_is_var(v) and v in tainted for v in jaxpr.outvars]

    @staticmethod
    def _touches_ref(eqn) -> bool:
        """A primitive that creates, reads or writes a mutable ref (``jax.new_ref``). A ref is
        shared state: what is written into one may be read back anywhere, inside calls and
        loops too, so refs are one pool. A tainted write taints the pool, and every read
        from a tainted pool is tainted (``trace_flow`` runs again until the pool settles).
        Calls and loops that merely pass a ref along are followed as usual."""
        if eqn.primitive.name in _CALLS or eqn.primitive.name in ("cond", "while", "scan"):
            return False
        return any(_is_ref(v) for v in (*eqn.invars, *eqn.outvars))

    def _equation(self, eqn, ins: list[bool], fac: list[bool]) -> list[bool]:
        name, params = eqn.primitive.name, eqn.params
        n_out = len(eqn.outvars)
        if name == "cond":
            if ins[0]:
                return [True] * n_out
            outs = [False] * n_out
            for branch in params["branches"]:
                outs = [a or b for a, b in zip(outs, self.run(branch, ins[1:], fac[1:]))]
            return outs
        if name == "while":
            return self._while(params, ins, fac, n_out)
        if name == "scan":
            return self._scan(params, ins, fac, n_out)
        sub = params.get(_CALLS.get(name, ""))
        if sub is not None and hasattr(_open(sub), "eqns") \
                and len(_open(sub).invars) == len(ins) and len(_open(sub).outvars) == n_out:
            return self.run(sub, ins, fac)
        if any(_holds_jaxpr(v) for v in params.values()):
            self.opaque += 1
        return [True] * n_out

    def _while(self, params, ins, fac, n_out):
        nc, nb = params["cond_nconsts"], params["body_nconsts"]
        cond_consts, body_consts, carry = ins[:nc], ins[nc:nc + nb], ins[nc + nb:]
        cond_fac = fac[:nc] + [False] * len(carry)
        body_fac = fac[nc:nc + nb] + [False] * len(carry)
        for _ in range(len(carry) + 1):
            if self.run(params["cond_jaxpr"], cond_consts + carry, cond_fac)[0]:
                return [True] * n_out
            outs = self.run(params["body_jaxpr"], body_consts + carry, body_fac)
            new = [a or b for a, b in zip(carry, outs)]
            if new == carry:
                break
            carry = new
        return carry

    def _scan(self, params, ins, fac, n_out):
        nc, ncarry = params["num_consts"], params["num_carry"]
        consts, carry, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
        body_fac = fac[:nc] + [False] * (len(ins) - nc)
        ys = [False] * (n_out - ncarry)
        for _ in range(len(carry) + 1):
            outs = self.run(params["jaxpr"], consts + carry + xs, body_fac)
            new = [a or b for a, b in zip(carry, outs[:ncarry])]
            ys = [a or b for a, b in zip(ys, outs[ncarry:])]
            if new == carry:
                break
            carry = new
        return carry + ys


def _transforms(segment: str, name: str) -> tuple[str, ...] | None:
    """The transformations wrapped around the scope ``name`` in a name-stack segment, outermost
    first, batching (``vmap``) left out: ``vmap(transpose(jvp(name)))`` gives ("transpose",
    "jvp"). None when the segment is not such a chain."""
    found = []
    while segment != name:
        head, paren, rest = segment.partition("(")
        if not paren or not rest.endswith(")"):
            return None
        if head != "vmap":
            found.append(head)
        segment = rest[:-1]
    return tuple(found)


@functools.cache
def _library_folders() -> tuple[str, ...]:
    import jax
    import jaxlib

    return tuple(os.path.dirname(m.__file__) + os.sep for m in (jax, jaxlib))


_INSTRUMENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "instrument.py")


#: The instrument's functions an output marker is created under: ``mark`` itself, or, since JAX
#: records what it emits while transposing under the traceback of the equation it transposes,
#: the instrumented custom_vjp's ``__call__`` whose backward rule runs.
_MAKERS = (".mark", "TrackedCustomVJP.__call__")


def _made_by_the_instrument(eqn) -> bool:
    """Whether the Python code that created ``eqn`` (the first frame of its traceback outside
    JAX itself) is the instrument's (``_MAKERS``). A submission can learn the scope names and
    even hold the factor (a nested trace of its own closes over it and hands it back, as a
    constant of ``make_jaxpr`` or a residual of a pullback), but a multiplication it writes
    outside a backward rule is created by its own code."""
    traceback = getattr(eqn.source_info, "traceback", None)
    frames = getattr(traceback, "frames", None)
    if not frames:
        return False
    library = _library_folders()
    for frame in frames:  # innermost first
        if os.path.abspath(frame.file_name).startswith(library):
            continue
        return (os.path.abspath(frame.file_name) == _INSTRUMENT
                and frame.function_name.endswith(_MAKERS))
    return False


def _is_ref(atom) -> bool:
    return "Ref" in type(getattr(atom, "aval", None)).__name__  # AbstractRef across versions


def _holds_jaxpr(value) -> bool:
    if hasattr(value, "eqns") or hasattr(getattr(value, "jaxpr", None), "eqns"):
        return True
    return isinstance(value, (tuple, list)) and any(_holds_jaxpr(v) for v in value)


def trace_flow(closed, marker: str, sources: list[int], sinks: list[int],
               primals: list[int], factor: int, made: set[int] | None = None) -> dict:
    """Does any input in ``sources`` (the cotangent) reach any output in ``sinks`` of ``closed``
    without passing the output marker of a custom_vjp function that was applied to a value
    depending on an input in ``primals``? ``factor`` is the index of the factor input. ``made``:
    the ids of the variables the instrument's output markers defined, when it is known (an
    output marker counts only as the equation the instrument itself recorded: code of the
    submission's inside a backward rule carries the same traceback and may copy the scope, but
    it defines other variables). Plain data for the result channel."""
    jaxpr = _open(closed)
    n = len(jaxpr.invars)
    is_factor = [i == factor for i in range(n)]
    applied = Flow(marker, refs=False)  # a function counts as applied to x only where that is sure
    applied.run(jaxpr, [i in primals for i in range(n)], is_factor)
    sources_in = [i in sources for i in range(n)]
    flow = _settled(lambda taint: Flow(marker, bound=applied.applied, ref_taint=taint, made=made),
                    jaxpr, sources_in, is_factor)
    outs = flow.last
    plain = _settled(lambda taint: Flow(marker, ref_taint=taint), jaxpr, sources_in, is_factor).last
    return {"reached": any(outs[i] for i in sinks if i < len(outs)),
            "used": any(plain[i] for i in sinks if i < len(plain)),
            "rules": flow.rules, "opaque": flow.opaque}


def _settled(make, jaxpr, tainted_in, factor_in) -> Flow:
    """Run a fresh ``Flow`` (``make(ref_taint)``) until the ref pool's taint no longer changes:
    a read may come before the write that taints the pool. The last flow has ``last``."""
    flow = make(False)
    flow.last = flow.run(jaxpr, tainted_in, factor_in)
    if flow.ref_taint:
        flow = make(True)
        flow.last = flow.run(jaxpr, tainted_in, factor_in)
    return flow


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
