"""The labels the custom_vjp dataflow (``provenance``) puts on values, how an operation or a
control-flow construct combines them, and the vocabulary of primitives it reads: which calls
it follows into, which give a value back unchanged, which only move a value.

A label is a string or a tuple: ``X`` (depends on x), ``A`` (a raw cotangent), ``P`` (a
cotangent a rule passed), ``M`` (mixed), ``XM`` (x itself, only moved), ``R`` (what a backward
rule of a bound function returned), and the per-function tuples ``("i", n)``, ``("c", n)`` and
``("g", run)`` that ``provenance``'s module docstring describes.
"""

from __future__ import annotations

import ml_dtypes

#: Call primitives (their names across the JAX versions supported) and the parameter holding the
#: sub-jaxpr that takes the equation's inputs and gives its outputs. Only these are followed: a
#: primitive such as ``reduce`` also holds a ``jaxpr``, but its inputs are not the equation's.
CALLS = {"jit": "jaxpr", "pjit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr",
          "remat2": "jaxpr", "checkpoint": "jaxpr", "remat": "jaxpr", "named_call": "call_jaxpr",
          "custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr",
          "custom_vjp_call_jaxpr": "fun_jaxpr",
          # a forward rule under ``optimize_remat``: its jaxpr gives the primal outputs and
          # the residuals the equation gives
          "remat_opt": "fwd_jaxpr"}
#: Primitives that give their first operand back unchanged in value (a cast, a broadcast under
#: vmap): the factor, or a zero made from it, stays what it was.
SAME_VALUE = frozenset({"convert_element_type", "broadcast_in_dim", "reshape", "squeeze",
                         "expand_dims", "copy", "copy_p", "stop_gradient"})

#: What a cotangent outside every rule may pass through under ``plumbed``: its value moved,
#: not changed (and ``add``: a sum of contributions). ``stack`` and ``unstack`` are the
#: primitives ``jnp.stack`` and ``jnp.unstack`` bind, each the other's transpose, and ``tile``
#: the one ``jnp.tile`` (and ``jnp.resize``) binds.
PLUMBING = frozenset({"reshape", "broadcast_in_dim", "squeeze", "expand_dims", "transpose",
                       "convert_element_type", "copy", "copy_p", "add", "add_any", "concatenate",
                       "stack", "unstack", "split", "tile", "slice", "dynamic_slice",
                       "dynamic_update_slice", "gather", "scatter-add", "scatter_add", "pad",
                       "reduce_sum", "select_n", "rev", "zeros_like", "symbolic_zeros",
                       "stop_gradient", "optimization_barrier"})

#: What gives a value back as it is, moved and not changed: a function whose output is its
#: input passed through these computes nothing (its output marker gives no F(n)). A
#: ``bitcast_convert_type`` keeps the bits it is given (a round trip through int32 is the value
#: itself); ``reduce_precision`` passes a value only at its type's own precision
#: (``keeps_precision``): below it, it rounds.
PASSING = frozenset({"reshape", "broadcast_in_dim", "squeeze", "expand_dims", "transpose",
                      "convert_element_type", "copy", "copy_p", "concatenate", "stack", "unstack",
                      "split", "tile", "slice", "dynamic_slice", "dynamic_update_slice", "gather",
                      "pad", "select_n", "rev", "stop_gradient", "optimization_barrier",
                      "bitcast_convert_type"})

#: What joins values into one, and how many of its first operands are joined (the rest are
#: indices): x moved only where every one of them is x moved (``provenance``), since a slice of
#: the join may be another operand's part, as ``concatenate([x * 0, x])[:n]`` is ``x * 0`` and
#: ``pad(x, (n, 0))[:n]`` the padding value.
JOINS = {"concatenate": None, "stack": None, "dynamic_update_slice": 2, "pad": 2}

X, A, P, M = "x", "a", "p", "m"   # depends on x; raw cotangent; passed a rule; mixed
XM = "xm"                          # x itself, moved only (``provenance.Flow``): under ``plumbed``
R = "r"                            # what a backward rule of a bound function returned
NONE: frozenset = frozenset()
ROUNDS = 10_000  # a loop's rounds at most: each adds a label to a carry (finitely many) or ends
COTANGENT = frozenset({A, P, M})


def keeps_precision(eqn) -> bool:
    """Whether a ``reduce_precision`` keeps at least its operand type's own exponent and
    mantissa bits, and so gives every value back as it is."""
    try:
        info = ml_dtypes.finfo(eqn.invars[0].aval.dtype)
        return (int(eqn.params["exponent_bits"]) >= info.nexp
                and int(eqn.params["mantissa_bits"]) >= info.nmant)
    except Exception:  # noqa: BLE001 - a type or form not read here: it may round
        return False


def inside(labels) -> bool:
    """Whether labels include a G(run): the cotangent inside a run of a rule."""
    return any(isinstance(label, tuple) and label[0] == "g" for label in labels)


def computed(labels: frozenset) -> frozenset:
    """The labels of a value an operation that changes values computed from these: the input
    of function n (I(n)) becomes what was computed from it (C(n))."""
    inputs = {label for label in labels if isinstance(label, tuple) and label[0] == "i"}
    if not inputs:
        return labels
    return (labels - inputs) | {("c", label[1]) for label in inputs}


def mixed(labels: frozenset) -> frozenset:
    """The labels of a value computed, outside any rule, from these: a cotangent that has not
    entered a rule (A) or has left one (P) combined with a value depending on x is mixed (M)."""
    return (labels - {A, P}) | {M} if X in labels and labels & {A, P} else labels


def open_jaxpr(jaxpr):
    """The open jaxpr of a Jaxpr or ClosedJaxpr."""
    return getattr(jaxpr, "jaxpr", jaxpr) if not hasattr(jaxpr, "eqns") else jaxpr


def is_var(atom) -> bool:
    return hasattr(atom, "aval") and not hasattr(atom, "val")  # a Literal has .val


def scopes(eqn) -> list[str]:
    """The names of the scopes an equation was recorded under (``jax.named_scope``,
    ``jax.named_call``), without the transformations JAX interleaves with them."""
    stack = getattr(getattr(eqn.source_info, "name_stack", None), "stack", ())
    return [e.name for e in stack if type(e).__name__ == "Scope" and isinstance(e.name, str)]


def controlled(labels: frozenset, control: frozenset) -> frozenset:
    """The labels of an output chosen by a ``cond`` index or a ``while`` condition with
    ``control``'s labels: every cotangent label of the control, and x-dependence, which mixes
    a raw cotangent (a mask chosen by x, element by element under vmap or scan) but not one a
    rule inside the branch has passed (a ``cond`` around the custom_vjp function)."""
    out = labels | (control - {X, XM})
    if X in control:
        if A in out:
            out = (out - {A}) | {M}
        if not (out & {P} or inside(out)):
            out = out | {X}
    return out


def given_by_some(out: frozenset, given) -> frozenset:
    """The labels of an output chosen by x from ``given`` (each branch's, or a while's initial
    carry and its trips'): a cotangent that some of them give and another does not (zeros beside
    a rule's output) is a mask chosen by x, mixed."""
    if out & {A, P} and not all(labels & COTANGENT or inside(labels) for labels in given):
        return (out - {A, P}) | {M}
    return out


def same_rules(out: frozenset, given) -> frozenset:
    """The labels of an output chosen by x from the branches' ``given``: a cotangent the
    branches pass through the rules of different functions (one passing it, another zeroing
    it) is a transformation chosen by x outside the rules, mixed; the same function's rule in
    every branch (applied to x moved differently) chooses nothing."""
    passed = {frozenset(label for label in labels if isinstance(label, tuple) and label[0] == "p")
              for labels in given if P in labels}
    if out & {A, P} and len(passed) > 1:
        return (out - {A, P}) | {M}
    return out


def unpassed(labels: frozenset) -> frozenset:
    """The labels of an operand of a ``cond`` whose index, or a ``while`` whose condition,
    depends on x: a cotangent a rule passed before it (P) counts there as raw (A), so what the
    branches or the body give back of it without a rule of their own is mixed (a mask chosen
    by x after a rule that does nothing), while one a rule inside them passes is P again."""
    return (labels - {P}) | {A} if P in labels else labels


def is_ref(atom) -> bool:
    return "Ref" in type(getattr(atom, "aval", None)).__name__  # AbstractRef across versions


def one(atom, kinds: dict) -> bool:
    """A literal 1 (any dtype), or a variable known to hold ones."""
    return kinds.get(atom) == "one" if is_var(atom) else literal(atom, 1.0)


def literal(atom, value: float) -> bool:
    """Whether ``atom`` is a scalar literal equal to ``value`` (any dtype)."""
    if is_var(atom):
        return False
    try:
        return float(getattr(atom, "val")) == value
    except Exception:  # noqa: BLE001 - not a scalar literal
        return False


def holds_jaxpr(value) -> bool:
    if hasattr(value, "eqns") or hasattr(getattr(value, "jaxpr", None), "eqns"):
        return True
    return isinstance(value, (tuple, list)) and any(holds_jaxpr(v) for v in value)


def of_factor(eqn, kin: list) -> str | None:
    """The kind of what ``eqn`` makes of the trace's factor alone (``kin``: its operands' kinds):
    ``factor - factor``, the zero input markers subtract ("zero"); ``clamp(0, factor, STILL)``
    ("clamped"), less the factor, the zero or the move a function's output marker subtracts
    ("shift"), its size ("distance") and whether that size is a far move, its ``select_n``'s
    predicate ("moving"), see
    ``instrument`` and ``shift``; else None."""
    name = eqn.primitive.name
    if name == "sub" and kin == ["factor", "factor"]:
        return "zero"
    if name == "clamp" and kin == [None, "factor", None] and not any(
            is_var(v) for v in (eqn.invars[0], eqn.invars[2])):
        return "clamped"
    if name == "sub" and kin == ["clamped", "factor"]:
        return "shift"
    if name == "ne" and sorted(map(str, kin)) == ["clamped", "factor"]:
        return "moving"
    if name == "abs" and kin == ["shift"]:
        return "distance"
    if name == "ge" and kin[:1] == ["distance"] and len(kin) == 2 and not is_var(eqn.invars[1]):
        return "moving"  # the move far enough to replace the output
    return None


def whole_window(eqn) -> bool:
    """A ``dynamic_slice`` whose window is its whole operand, or a ``dynamic_update_slice``
    whose update is: JAX clamps the start so that the window fits, so it is 0 whatever the
    index reads, and the result is the operand (the update) itself."""
    name = eqn.primitive.name
    try:
        if name == "dynamic_slice":
            return tuple(eqn.params["slice_sizes"]) == tuple(eqn.invars[0].aval.shape)
        if name == "dynamic_update_slice":
            return tuple(eqn.invars[1].aval.shape) == tuple(eqn.invars[0].aval.shape)
    except (AttributeError, KeyError, IndexError, TypeError):
        return False
    return False
