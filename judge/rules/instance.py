"""The program a case runs must be the program the rules decided on, instantiated at the case's
dims: ``depends_on_concreteness``.

The rules decide on one program traced with the spec's ``symbolic_dims`` as symbols. A
submission can tell that trace from the run that computes a case's values (an extent is a Python
``int`` only when it is concrete) and take another branch there: the honest program when traced
symbolically, ``jax.hessian`` when it runs. So both summaries carry the program's fingerprint
(``sequence``, ``judge.worker.program``): each equation of a canonical walk, its primitive and
its outputs' shapes. Here the symbolic fingerprint is instantiated at the case's dims (each
extent's text evaluated, ``judge.rules.polynomial``) and compared with the case's own, equation
by equation; the first difference is a breach.

Left out on both sides: equations that only move data (``PLUMBING``), and equations whose
outputs are all scalars (with a symbolic extent JAX adds scalar index arithmetic, ``x[0]``
checks its index with ``lt``/``add``/``select_n``, and ``jnp.average`` computes its divisor; a
scalar is never what a rule on sizes, loops or degrees is about). Where the comparison is
skipped (it decides nothing there):

* a case where a symbolic dim has an extent below 2: JAX specializes some operations at
  extent 1 (``squeeze``, broadcasts), so honest programs differ there;
* a case whose shapes are not an instance of the symbolic trace's (never, by construction: the
  judge traces one symbolic program per combination of the other dims and static values);
* an extent the judge cannot read (``polynomial.ExtentError``): that entry's shape matches any
  shape of the same rank (its primitive is still compared).

Only the first ``protocol.MAX_SEQUENCE`` equations of each walk are listed (and at most
``MAX_SEQUENCE_CHARS`` characters): a program longer than its list, on either side, is a
breach (fail closed: padding a program past the list must not hide what follows).

The worker's tracing shims (``judge.worker.symbolic``) change nothing at concrete shapes: a
concrete scan length is JAX's own, and a ``squeeze`` without axis squeezes the extents equal to 1,
which at concrete shapes are all of them, as JAX does. So the case's own program (traced without
them) is comparable.
"""

from __future__ import annotations

from judge.rules import polynomial
from judge.rules.base import Breach

REASON = "depends_on_concreteness"

#: Primitives that only move or relabel data, which JAX specializes when extents are numbers
#: (an integer index is a ``slice`` and a ``squeeze`` at concrete shapes, a ``gather`` of a
#: ``broadcast_in_dim`` index with symbolic ones; a mean over a symbolic dim divides by
#: ``dim_as_value``): left out of the comparison on both sides. What they compute is still
#: compared through every other equation, which sees the shapes they made.
PLUMBING = frozenset({"slice", "dynamic_slice", "squeeze", "gather", "broadcast_in_dim", "reshape",
                      "dim_as_value", "convert_element_type", "concatenate"})


def case_dims(symbolic_shapes, shapes) -> dict | None:
    """name -> extent of each symbolic dim at a case with ``shapes``; None when the case's shapes
    are not an instance of the symbolic ones."""
    dims: dict = {}
    for name, extents in symbolic_shapes.items():
        got = shapes.get(name)
        if got is None or len(got) != len(extents):
            return None
        for extent, value in zip(extents, got):
            if isinstance(extent, str):
                if dims.setdefault(extent, int(value)) != int(value):
                    return None
            elif int(extent) != int(value):
                return None
    return dims


def _instantiate(shape, dims: dict):
    """The shape at ``dims`` (a tuple of ints, None where an extent cannot be read)."""
    if shape is None:
        return None
    out = []
    for extent in shape:
        try:
            out.append(int(polynomial.evaluate(polynomial.parse(extent), dims)))
        except (polynomial.ExtentError, KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError):
            out.append(None)
    return tuple(out)


def _concrete(shape):
    if shape is None:
        return None
    try:
        return tuple(int(e) for e in shape)
    except ValueError:
        return tuple(None for _ in shape)


def _same(expected, got) -> bool:
    if len(expected) != len(got):
        return False
    for a, b in zip(expected, got):
        if a is None or b is None:
            if (a is None) != (b is None):
                return False
            continue
        if len(a) != len(b) or any(x is not None and y is not None and x != y for x, y in zip(a, b)):
            return False
    return True


def _words(entry) -> str:
    if entry is None:
        return "the end of the program"
    name, shapes = entry
    texts = ["?" if s is None else polynomial.shape_text(tuple(str(e) for e in s)) for s in shapes]
    return f"{name} -> {', '.join(texts) if texts else '()'}"


#: Loops that are one another at concrete and symbolic extents: ``fori_loop(0, T, ...)`` is a
#: ``scan`` when T is a number and a ``while`` when it is a symbol.
_SAME = {"while": "loop", "scan": "loop"}


def _key(name: str, shapes) -> tuple:
    """What is compared of one equation: its primitive (a loop as a loop) and the shapes of its
    outputs that are not scalars (a ``while`` also carries its counter and bound)."""
    return _SAME.get(name, name), tuple(s for s in shapes if s is None or len(s))


def _kept(sequence) -> list:
    """``(position, entry)`` for each equation that is not shape plumbing and has an output
    that is not a scalar."""
    return [(i, entry) for i, entry in enumerate(sequence)
            if entry[0] not in PLUMBING and any(shape is None or len(shape) for shape in entry[1])]


#: Primitives that call a function: their outputs are the function's results, which the
#: equations inside are compared by. Traced with symbolic dims, a call may also return a dim's
#: value (a residual a derivative keeps), so the symbolic call may have more outputs.
CALLS = frozenset({"jit", "pjit", "closed_call", "core_call", "remat", "checkpoint",
                   "custom_jvp_call", "custom_vjp_call", "custom_vjp_call_jaxpr"})


def _matches(key, wanted) -> bool:
    if key[0] != wanted[0]:
        return False
    if key[0] in CALLS and len(key[1]) < len(wanted[1]):  # the symbolic call has extra outputs
        spare = list(wanted[1])
        for shape in key[1]:
            found = next((s for s in spare if _same([s], [shape])), None)
            if found is None:
                return False
            spare.remove(found)
        return True
    if len(key[1]) != len(wanted[1]):
        return False
    return _same(list(wanted[1]), list(key[1]))


def check(symbolic_trace, shapes, program) -> Breach | None:
    """The breach when the case's own ``program`` (at ``shapes``) has an equation that the
    program of ``symbolic_trace`` instantiated at the case's dims does not have as often."""
    if symbolic_trace is None or program is None or symbolic_trace.program is None:
        return None
    found = symbolic_trace.program
    dims = case_dims(symbolic_trace.shapes, shapes)
    if dims is None or any(dims.get(d, 0) < 2 for d in symbolic_trace.symbols):
        return None
    symbols = ", ".join(symbolic_trace.symbols)
    told = f"with {symbols} as {'a symbol' if len(symbolic_trace.symbols) == 1 else 'symbols'}"
    for which, listed in (("traced " + told, found), ("at this case's shapes", program)):
        if len(listed.sequence) < listed.equations:  # fail closed: padding past the list hides nothing
            return Breach(REASON, f"the program {which} has {listed.equations:,} equations, more than "
                                  f"the {len(listed.sequence):,} the judge compares between the "
                                  f"program traced {told} and each case's own: it cannot be "
                                  f"shown not to depend on whether its dims are numbers")
    if not found.sequence or not program.sequence:
        return None  # nothing listed: no equation on either side
    mine_all, theirs_all = _kept(found.sequence), _kept(program.sequence)
    left = [[_key(entry[0], [_instantiate(s, dims) for s in entry[1]]), True] for _, entry in mine_all]
    for k, (j, theirs) in enumerate(theirs_all):
        key = _key(theirs[0], [_concrete(s) for s in theirs[1]])
        spare = next((item for item in left if item[1] and _matches(key, item[0])), None)
        if spare is not None:
            spare[1] = False
            continue
        i, mine = mine_all[k] if k < len(mine_all) else (None, None)
        return _breach(j, theirs, i, mine, dims, told)
    return None


def _breach(j: int, theirs, i, mine, dims: dict, told: str) -> Breach:
    at = ", ".join(f"{k} = {v}" for k, v in sorted(dims.items()))
    other = (f"equation {i + 1} there: {_words(mine)}" if mine is not None
             else "it has fewer equations")
    return Breach(REASON, f"equation {j + 1}: {_words(theirs)} at this case's shapes, which the "
                          f"program traced {told} does not have (as often) at {at} ({other} {told}): "
                          f"the program must not depend on whether its dims are numbers")
