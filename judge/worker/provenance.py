"""Where a gradient came from: dataflow through a traced computation (worker side, measures only).

The rule ``custom_vjp_grads`` asks that the cotangent reach a gradient only through a custom_vjp
backward rule's cotangent input. The instrumented custom_vjp (``instrument``) numbers each
custom_vjp function and leaves three kinds of *marker* equations in the trace:

* where function n is applied to a traced array, a subtraction of a zero made from the trace's
  factor input, under a name scope ``<prefix>in<n>`` whose prefix is random per run (the
  *input marker*);
* where JAX runs a backward rule, the same subtraction on the rule's cotangent input (the
  *cotangent marker*), and a multiplication by the factor on what the rule returns (the
  *output marker*). These two count only as the very variables the instrument recorded
  (``made``: variable id -> (kind, run of the rule, function)), whatever their scope.

Two passes over the jaxpr, forwards, each giving every variable a set of labels:

1. from the case's primal inputs (``x``, label X): which applications of the functions were to
   a value depending on them (their input marker, ``<marker>in<n>a<k>`` for application k of
   function n, is reached): they are *bound*, and a rule's markers count only for a run of the
   rule of a bound application (the instrument records the application with each marker), so
   a function applied to x beside a pullback taken at another point gives that pullback
   nothing;
2. from the primal inputs (X) and the cotangent input (label A, the raw cotangent). A cotangent
   marker turns A, and P below, into G(run): the cotangent inside that run of a rule. An output
   marker of a bound function turns G(run) of its own run into P (passed through a rule), and
   nothing else: a cotangent that entered the rule through a residual, a closure or a primal
   argument is still A when the rule returns it. Outside rules, a value that combines a
   cotangent (A or P) with a value depending on x becomes M (mixed): a mask applied by a
   formula before or after a rule that does nothing. M never becomes anything else. Every
   output marker of a bound function also adds R (returned by a rule), whatever its operand
   carries, so a rule that returns zeros made of nothing (an honest shortcut where the answer
   is zero) still leaves its mark. The field is *reached* when it carries A, M or any G;
   *used* when it carries any cotangent label; *returned* when each of its parts carries R.

In each pass an equation's outputs carry the union of its inputs' labels. Sub-computations are
followed where their dataflow is known: calls (``jit``, ``pjit``, ``closed_call``, ``remat``,
custom_jvp/custom_vjp bodies) map inputs to inputs and outputs to outputs; ``cond`` joins its
branches, and its index is a control dependence: a cotangent label on it reaches every output,
and an x-dependent index mixes a raw cotangent (A) the branches give (but not one that passed a
rule inside them, so a ``cond`` around the custom_vjp function is as good as none); a cotangent
that passed a rule before such a ``cond`` enters its branches as raw (A) again, so one chosen
by x after a rule that does nothing is mixed, and in its branches a cotangent outside the rules
may only be moved (as under ``plumbed``), while an output that some branches give a cotangent
and another does not (zeros beside a rule's output) is mixed too: a mask chosen by x around a
rule that does nothing, even where the rule runs inside the branches; an output that every
branch computes alike from the same operands (a residual the forward branches hand on, the
cotangent itself or moved the same way) does not depend on the choice, and keeps its operands'
labels; the branches of a ``cond`` on x that pass the cotangent through rules must all pass
it through the rules of the same functions (``("p", n)``), or the choice of rule by x is mixed.
Under ``vmap`` such a ``cond`` is a ``select_n`` on x, whose transpose puts the cotangent into
one case of a select and zeros into the others (one select on ``which == i`` per case of a
``switch``): that *piece* is labelled ``("k", key, case, cases)`` instead of mixed, may only be
moved outside the rules (as under ``plumbed``), records each rule it passes (``("kp", ...,
n)``), and where it reaches the field every piece of its select must be there, each through the
rules of the same functions (``flow_pieces``); a select on the same predicate
applied again to a piece after its rule (JAX's gate of the branch's input) keeps it. ``while``
and ``scan`` iterate over their carries
to a fixed point (a ``while`` condition is a control dependence like a ``cond`` index, and an
x-dependent one takes a passed cotangent back to raw in the same way, and mixes a cotangent the
trips give where the initial carry held none). Any other equation that holds a sub-jaxpr is *opaque*
(``reduce``, whose reducer takes accumulators and elements, not the equation's operands, is
one): its outputs carry all of its inputs' labels, and a marker inside it counts for nothing.
Mutable refs (``jax.new_ref``) are one shared pool: what is written anywhere is read everywhere.
A ``cond`` whose index is computed from constants alone (``flow_consts``) takes the same branch
on every input: it is followed as that branch alone, as a call; a ``select_n`` whose predicate
is known so at every entry gives the labels of the case it picks alone. A ``sort`` of several
operands moves each (``_sorted``); a window that is the whole operand ignores its start
(``flow_labels.whole_window``).

Which function computed a value: the input marker of function n gives its input I(n) (and takes
off C(n): what was computed from an earlier input of it, and F(n), S(n) and Z(n): what an
earlier application of it made, which this one takes as its input, as in ``q(q(x))``), an
operation that changes values (not a move, ``flow_labels.PASSING``, nor a product with one or
a sum with a literal zero) turns
I(n) into C(n), and the function's output marker adds F(n) where C(n) is there: F(n) is "what
function n computed from its input", which an identity function (its output its input, moved)
never gives, and a rounding outside every function neither. The output marker of a backward
rule of function n adds P(n) beside P. A field that the custom_vjp function must compute
(``computed``) is measured by these: each of its parts carries F(n) of some n whose rule passed
the cotangent to the gradient (P(n)), reached from that function's output along a path the
pullback follows (S(n), no Z(n): ``smooth``). (The output marker's ``select_n`` on the factor
gives the function's output's labels; whether the values move with it is measured: ``shift``.)

With ``plumbed`` (the rule's ``plumbed: true``), a cotangent outside every rule (A or P) may
only be plumbed: reshaped, broadcast, transposed, cast, sliced, concatenated, summed with
another cotangent or over axes, or multiplied by a constant one; any other operation on it
(a scaling, a negation) makes it M, so a backward rule that returns g unchanged with the
reversal applied outside it is seen; and a function is bound only where applied to x itself,
moved (XM: dropped by all but ``_passes``, and by a ``select_n`` of x beside another value or a
join of x with one, ``flow_labels.JOINS``: a slice of it may be the other value, or a gather
that fills where an index is out of bounds), so
an identity layer, whose pullback is the same at any point, differentiated at ``x * 0`` is not.

A formula (the cotangent times a mask), a ``stop_gradient`` construction, a factor taken from a
dummy rule, a cotangent routed around the rule, an intermediate smuggled out of a rule, a rule
of a dummy function applied only to constants, a rule that takes the cotangent from a residual
or its closure, and a rule that does nothing with a mask applied outside it all leave the field
with A, M or G. The analysis is conservative: it may see a path that carries no value (a
multiplication by zero), never miss one that does.
"""

from __future__ import annotations

import re

from . import flow_consts, flow_labels as lab, flow_pieces, jaxapi, smooth
from .flow_labels import NONE, A, M, P, R, X, XM
from .branch_prints import same_in_every_branch


class Flow:
    """Label propagation through one jaxpr (see the module's docstring). ``marker`` is the
    secret scope prefix of the instrument's input markers; ``made`` maps the id of each variable
    a cotangent or output marker defined to (kind, run, function). With ``bound`` None, the flow
    records in ``applied`` the functions applied to a value labelled X and no marker changes a
    label; otherwise the markers of the functions in ``bound`` do."""

    def __init__(self, marker: str, bound: set[int] | None = None, refs: bool = True,
                 pool: frozenset = NONE, made: dict | None = None, plumbed: bool = False,
                 applied_to: str = X, constants: flow_consts.Constants | None = None):
        self.constants = constants or flow_consts.Constants()  # a cond's index known
        self.plumbed = plumbed  # a cotangent outside every rule may only be moved, not changed
        self.applied_to = applied_to  # what an input of a function applied carries: X, or XM
        self.pattern = re.compile(re.escape(marker) + r"in(\d+)a(\d+)")
        self.made_pattern = re.compile(re.escape(marker) + r"out(\d+)")
        self.made = made if isinstance(made, dict) else {}
        self.bound = bound
        self.refs = refs      # False: a read from a mutable ref carries no label
        self.pool = pool      # the labels written into some ref so far
        self.applied: set[int] = set()  # the applications (their numbers) to x
        self.selects = flow_pieces.Selects()  # the selects on x that split a cotangent
        self.env: dict = {}   # the labels of the variables of the last jaxpr run
        self.rules = 0    # output markers that turned a rule's cotangent into P
        self.opaque = 0   # equations with sub-jaxprs whose dataflow is not followed

    def _applied_to(self, eqn, pattern=None) -> int | None:
        """The function number of an input marker, else None: a subtraction recorded under the
        scope ``<marker>in<n>a<k>`` (as a whole scope name, not part of one); with ``pattern``,
        the function's output marker's (``<marker>out<n>``)."""
        found = self._marker(eqn, pattern)
        return None if found is None else int(found.group(1))

    def _application(self, eqn) -> int | None:
        """The number k of the application an input marker marks (``<marker>in<n>a<k>``)."""
        found = self._marker(eqn, None)
        return None if found is None else int(found.group(2))

    def _marker(self, eqn, pattern):
        if eqn.primitive.name != "sub":
            return None
        for name in reversed(lab.scopes(eqn)):
            found = (pattern or self.pattern).fullmatch(name)
            if found:
                return found
        return None

    def _made(self, eqn):
        """(kind, run, function) of a cotangent or output marker the instrument recorded."""
        for v in eqn.outvars:
            found = self.made.get(id(v))
            if found is not None:
                return found
        return None

    def run(self, jaxpr, labels_in: list, kinds_in: list) -> list[frozenset]:
        """The labels of the outputs of ``jaxpr``, given its inputs' labels. ``kinds_in`` says
        which inputs are the trace's factor ("factor") or a zero made from it ("zero"); an input
        marker counts only where it subtracts such a zero, which no submission code can make
        outside a rule, and a function's output marker only where it subtracts a "shift"
        (``flow_labels.of_factor``)."""
        jaxpr = lab.open_jaxpr(jaxpr)
        labels = {v: frozenset(l) for v, l in zip(jaxpr.invars, labels_in) if l}
        kinds = {v: k for v, k in zip(jaxpr.invars, kinds_in) if k}
        for eqn in jaxpr.eqns:
            ins = [labels.get(v, NONE) if lab.is_var(v) else NONE for v in eqn.invars]
            kin = [kinds.get(v) if lab.is_var(v) else "one" if lab.literal(v, 1.0) else None
                   for v in eqn.invars]  # a literal one handed to a branch is a one there
            name = eqn.primitive.name
            if name in lab.SAME_VALUE and kin and kin[0]:
                kinds.update((v, kin[0]) for v in eqn.outvars)
            if lab.of_factor(eqn, kin):  # a zero made from the factor, or the moves' parts
                kinds.update((v, lab.of_factor(eqn, kin)) for v in eqn.outvars)
            if name in lab.SAME_VALUE and eqn.invars and lab.literal(eqn.invars[0], 0.0):
                kinds.update((v, "nothing") for v in eqn.outvars)  # zeros, made of no value
            if name == "select_n" and len(kin) > 2 and kin[1] and all(k == kin[1] for k in kin[2:]):
                kinds.update((v, kin[1]) for v in eqn.outvars)  # the same value in every case
            self.selects.note(eqn)
            if name in lab.SAME_VALUE and eqn.invars and lab.one(eqn.invars[0], kinds):
                kinds.update((v, "one") for v in eqn.outvars)
            outs = self._equation(eqn, ins, kin)
            labels.update((v, l) for v, l in zip(eqn.outvars, outs) if l)
        self.env = labels  # the last run to end is the program's own: its variables' labels
        return [labels.get(v, NONE) if lab.is_var(v) else NONE for v in jaxpr.outvars]

    def _equation(self, eqn, ins: list, kin: list) -> list[frozenset]:
        n_out = len(eqn.outvars)
        fn = self._applied_to(eqn)
        if fn is not None and kin[1:] == ["zero"]:
            if self.applied_to in ins[0]:
                self.applied.add(self._application(eqn))
            if self.bound is None:
                return [ins[0]] * n_out  # the value itself
            # the function's input as it enters it: what is computed from it from here on is
            # the function's (what was computed from an earlier input of it is not, nor is
            # what an earlier application made: that output is this application's input)
            return [(ins[0] - {("c", fn), ("f", fn), ("s", fn), ("z", fn)}) | {("i", fn)}] * n_out
        fn = self._applied_to(eqn, self.made_pattern)
        if fn is not None and kin[1:] == ["shift"]:
            if self.bound is not None and ("c", fn) in ins[0]:  # computed from its input
                return [ins[0] | {("f", fn), ("s", fn)}] * n_out
            return [ins[0]] * n_out
        if eqn.primitive.name == "select_n" and kin[:1] == ["moving"] and len(ins) == 3:
            return [ins[1]] * n_out  # a function's output kept where the factor moves nothing
        made = self._made(eqn) if self.bound is not None else None
        if made is not None and made[3] in self.bound and len(ins) >= 1:
            kind, run = made[0], ("g", made[1])
            if kind == "g":  # the rule's cotangent input: a cotangent not yet mixed enters it
                got = ins[0]
                return [(got - {A, P}) | {run} if got & {A, P} else got] * n_out
            if kind == "out" and run in ins[0]:  # what that run of the rule made of it
                self.rules += 1
                passed = flow_pieces.passed(ins[0], made[2])
                return [(passed - {run, X}) | {P, R, ("p", made[2])}] * n_out
            if kind == "out":  # a rule's output made without its cotangent (zeros, a closure)
                return [out | {R} for out in self._plain(eqn, ins, kin, n_out)]
        return self._plain(eqn, ins, kin, n_out)

    def _plain(self, eqn, ins: list, kin: list, n_out: int) -> list[frozenset]:
        """The labels of an equation's outputs, markers aside."""
        if self._touches_ref(eqn):  # new_ref, get, swap, addupdate, freeze, ...
            written = frozenset().union(*ins)
            self.pool |= written
            out = (written | self.pool) if self.refs else NONE
            return [lab.mixed(out)] * n_out
        if not any(ins):
            return [NONE] * n_out
        return self._structured(eqn, ins, kin, n_out)

    def _structured(self, eqn, ins, kin, n_out) -> list[frozenset]:
        name, params = eqn.primitive.name, eqn.params
        if name == "cond" and self.constants.branch(eqn) is not None:
            # an index computed from constants alone: the same branch on every input, and
            # only that branch runs
            taken = params["branches"][self.constants.branch(eqn)]
            return [lab.controlled(out, ins[0]) for out in self.run(taken, ins[1:], kin[1:])]
        if name == "cond":
            by_x = X in ins[0]  # chosen by x: a cotangent that left a rule before is raw again
            operands = [lab.unpassed(labels) for labels in ins[1:]] if by_x else ins[1:]
            plumbed, self.plumbed = self.plumbed, self.plumbed or by_x
            try:  # and in the branches it is only moved: a change there is a mask chosen by x
                given = [self.run(branch, operands, kin[1:]) for branch in params["branches"]]
            finally:
                self.plumbed = plumbed
            outs = [frozenset().union(*got) for got in zip(*given)]
            if by_x:  # a cotangent that some branches give and others do not: a mask by x
                outs = [lab.same_rules(lab.given_by_some(out, got), got)
                        for out, got in zip(outs, zip(*given))]
            outs = [lab.controlled(out, ins[0]) for out in outs]
            same = same_in_every_branch(params["branches"], n_out)
            if same:  # computed alike whichever branch runs: the choice mixes nothing in
                counts = self.rules, self.opaque
                got = self.run(params["branches"][0], ins[1:], kin[1:])
                self.rules, self.opaque = counts
                for i in same:
                    outs[i] = got[i] | (ins[0] - {X, XM})
            return outs
        if name == "while":
            return self._while(params, ins, kin)
        if name == "scan":
            return self._scan(params, ins, kin, n_out)
        sub = params.get(lab.CALLS.get(name, ""))
        body = None if sub is None else lab.open_jaxpr(sub)
        if hasattr(body, "eqns") and len(body.invars) == len(ins) and len(body.outvars) == n_out:
            return self.run(sub, ins, kin)
        if any(lab.holds_jaxpr(v) for v in params.values()):
            self.opaque += 1
        found = self.selects.piece(eqn, ins, kin)
        if found is not None:  # a piece of the cotangent; where it is one already, kept as it is
            labels = frozenset().union(*ins[1:])
            return [labels if ("k", *found) in labels else flow_pieces.piece(labels, *found)] * n_out
        if name == "sort" and len(ins) > 1:
            return self._sorted(eqn, ins)
        chosen = self.constants.case(eqn) if name == "select_n" else None
        # a select whose predicate is known from constants gives the case it picks, moved
        out = frozenset().union(*ins) if chosen is None else ins[1 + chosen]
        if lab.whole_window(eqn):  # the index is clamped to 0: the window is the whole value
            ins = [ins[0]] if name == "dynamic_slice" else [ins[1], ins[1]]
            out = frozenset().union(*ins)
        if (self.plumbed or flow_pieces.has_piece(out)) and out & {A, P} and not self._moves(eqn, ins, kin):
            out = (out - {A, P}) | {M}
        if not self._passes(eqn, kin):
            out = lab.computed(out) - {XM}
        elif name == "select_n" and chosen is None and not all(XM in labels for labels in ins[1:]):
            out = out - {XM}  # x chosen beside another value at some places: not x moved
        elif name in lab.JOINS and not all(XM in labels for labels in ins[:lab.JOINS[name]]):
            out = out - {XM}  # x joined with another value: a part of it is not x moved
        elif name == "gather" and "FILL" in str(eqn.params.get("mode", "")):
            out = out - {XM}  # an index out of bounds gives the fill value, not x
        return [lab.mixed(smooth.after(eqn, ins, out))] * n_out

    def _sorted(self, eqn, ins) -> list[frozenset]:
        """A sort of several operands permutes each in the order of its keys: output i is
        operand i moved, beside what the keys carry (they choose the order), and x moved only
        where that operand is (zeros sorted by x are not x)."""
        keys = frozenset().union(*ins[:eqn.params.get("num_keys", 1)]) - {XM}
        outs = []
        for labels in ins:
            out = labels | keys
            if (self.plumbed or flow_pieces.has_piece(out)) and out & {A, P}:
                out = (out - {A, P}) | {M}  # a cotangent is never sorted by JAX's own pullbacks
            outs.append(lab.mixed(smooth.after(eqn, ins, out)))
        return outs

    def _passes(self, eqn, kin) -> bool:
        """Does this equation give a value back as it is, moved (``lab.PASSING``), or changed by
        nothing (a product with a constant one, a sum with a literal zero)?"""
        name = eqn.primitive.name
        if name in lab.PASSING:
            return True
        if name == "reduce_precision":
            return lab.keeps_precision(eqn)
        if name in ("mul", "div") and len(eqn.invars) == 2:
            kinds = {v: k for v, k in zip(eqn.invars, kin) if lab.is_var(v) and k}
            return any(lab.one(v, kinds) for v in eqn.invars[1 if name == "div" else 0:])
        if name in ("add", "sub", "add_any") and len(eqn.invars) == 2:
            return any(lab.literal(v, 0.0) for v in eqn.invars[1 if name == "sub" else 0:])
        return False

    def _moves(self, eqn, ins, kin) -> bool:
        """Does this equation only move a cotangent (``lab.PLUMBING``, or a product with a
        constant one: ``mul``, or ``dot_general``, whose product with ones is the cotangent
        itself or its sum over the contracted axes, as where ``jax.grad`` of ``vdot(r(x), dy)``
        seeds the scalar 1)?"""
        name = eqn.primitive.name
        if name in lab.PLUMBING:
            return True
        if name in ("mul", "dot_general") and len(eqn.invars) == 2:
            for mine, other, other_kind in ((ins[0], eqn.invars[1], kin[1]), (ins[1], eqn.invars[0], kin[0])):
                if mine & {A, P} and (other_kind == "one" or lab.one(other, {})):
                    return True
        return False

    @staticmethod
    def _touches_ref(eqn) -> bool:
        """A primitive that creates, reads or writes a mutable ref (``jax.new_ref``). A ref is
        shared state: what is written into one may be read back anywhere, inside calls and
        loops too, so refs are one pool: what is written anywhere is read everywhere
        (``trace_flow`` runs again until the pool settles). Calls and loops that merely pass
        a ref along are followed as usual."""
        if eqn.primitive.name in lab.CALLS or eqn.primitive.name in ("cond", "while", "scan"):
            return False
        return any(lab.is_ref(v) for v in (*eqn.invars, *eqn.outvars))

    def _while(self, params, ins, kin):
        counts = self.rules, self.opaque
        carry, control = self._while_rounds(params, ins, kin)
        if X in control and any(P in labels for labels in ins):
            # stopped by x: a cotangent that left a rule before the loop is raw again in it
            self.rules, self.opaque = counts
            carry, _ = self._while_rounds(params, [lab.unpassed(labels) for labels in ins], kin)
        if X in control:  # a cotangent the trips give where the initial carry has none
            first = ins[params["cond_nconsts"] + params["body_nconsts"]:]
            carry = [lab.given_by_some(out, (out, start)) for out, start in zip(carry, first)]
        return carry

    def _while_rounds(self, params, ins, kin):
        nc, nb = params["cond_nconsts"], params["body_nconsts"]
        cond_consts, body_consts, carry = ins[:nc], ins[nc:nc + nb], ins[nc + nb:]
        cond_kin = kin[:nc] + [None] * len(carry)
        body_kin = kin[nc:nc + nb] + [None] * len(carry)
        control = NONE
        for _ in range(lab.ROUNDS):  # each round adds labels to a carry, or stops: it ends
            control = control | self.run(params["cond_jaxpr"], cond_consts + carry, cond_kin)[0]
            outs = self.run(params["body_jaxpr"], body_consts + carry, body_kin)
            new = [lab.controlled(a | b, control) for a, b in zip(carry, outs)]
            if new == carry:
                break
            carry = new
        return carry, control

    def _scan(self, params, ins, kin, n_out):
        nc, ncarry = jaxapi.scan_layout(params, len(ins))
        consts, carry, xs = ins[:nc], ins[nc:nc + ncarry], ins[nc + ncarry:]
        body_kin = kin[:nc] + [None] * (len(ins) - nc)
        ys = [NONE] * (n_out - ncarry)
        for _ in range(lab.ROUNDS):
            outs = self.run(params["jaxpr"], consts + carry + xs, body_kin)
            new = [a | b for a, b in zip(carry, outs[:ncarry])]
            ys = [a | b for a, b in zip(ys, outs[ncarry:])]
            if new == carry:
                break
            carry = new
        return carry + ys


def trace_flow(closed, marker: str, sources: list[int], sinks: list[int],
               primals: list[int], factor: int, made: dict | None = None, plumbed: bool = False,
               computed: list[int] | None = None) -> dict:
    """Does any input in ``sources`` (the cotangent) reach any output in ``sinks`` of ``closed``
    other than from a cotangent marker to an output marker of the same run of a rule of a
    custom_vjp function applied to a value depending on an input in ``primals``? ``factor`` is
    the index of the factor input; ``made`` the markers the instrument recorded (see
    ``instrument``: id of the variable -> (kind, run, function)). With ``computed`` (the outputs
    of the field a custom_vjp function must compute), also: does each of them carry F(n) of a
    function n whose backward rule passed the cotangent to a sink (P(n))? Plain data for the
    result channel."""
    jaxpr = lab.open_jaxpr(closed)
    n = len(jaxpr.invars)
    kinds = ["factor" if i == factor else None for i in range(n)]
    # applied to x only where that is sure; under ``plumbed``, to x itself, moved (XM)
    constants = flow_consts.Constants(closed)
    applied = Flow(marker, refs=False, applied_to=XM if plumbed else X, constants=constants)
    applied.run(jaxpr, [frozenset({X, XM}) if i in primals else NONE for i in range(n)], kinds)
    start = [frozenset({A}) if i in sources else frozenset({X}) if i in primals else NONE
             for i in range(n)]
    flow = _settled(lambda pool: Flow(marker, bound=applied.applied, pool=pool, made=made,
                                      plumbed=plumbed, constants=constants),
                    jaxpr, start, kinds)
    outs = [flow.last[i] for i in sinks if i < len(flow.last)]
    found = {"reached": any(o & {A, M} or lab.inside(o) or not flow_pieces.whole(o) for o in outs),
             "used": any(o & lab.COTANGENT or lab.inside(o) for o in outs),
             "returned": bool(outs) and all(R in o for o in outs),
             "rules": flow.rules, "opaque": flow.opaque}
    if computed is not None:
        passed = {label[1] for o in outs for label in o if isinstance(label, tuple) and label[0] == "p"}
        fields = [smooth.unstopped(jaxpr, i) for i in computed if i < len(flow.last)]
        made_by = [smooth.made_by(flow.env.get(v, NONE) if lab.is_var(v) else NONE) for v in fields]
        found["computed"] = bool(made_by) and all(fns & passed for fns in made_by)
    return found


def _settled(make, jaxpr, labels_in, kinds_in) -> Flow:
    """Run a fresh ``Flow`` (``make(pool)``) until the ref pool's labels no longer change: a
    read may come before the write that labels the pool. The last flow has ``last``."""
    pool = NONE
    for _ in range(8):
        flow = make(pool)
        flow.last = flow.run(jaxpr, labels_in, kinds_in)
        if flow.pool == pool:
            break
        pool = flow.pool
    return flow
