"""Whether a field computed by a custom_vjp function depends on that function's output along a
path the pullback follows (``provenance``'s ``computed``; worker side, measures only).

The output marker of function n gives what it computed from its input F(n) and S(n): "reached
from function n's output by operations each of which has a derivative JAX follows". An
operation of zero derivative (``round``, ``floor``, ``ceil``, ``sign``, ``stop_gradient``, and any
whose result is a whole number or a flag: a cast, a comparison, ``argmax``) takes S(n) off and
gives Z(n): "reached from it through an operation whose derivative is zero". Every other
operation carries the labels of its operands (a sum keeps S(n) where one operand has it), but a
``select_n`` (``where``) leaves out what its predicate carries of S(n) and Z(n): a mask chosen by
the output (``where(out > hi, hi, out)``) is control, not the values' path.

A field that the function must compute (read through a ``stop_gradient`` of the whole field,
which gives the value it stops: ``provenance``) then needs, at each of its parts, F(n) and S(n) and no
Z(n) for one function n whose backward rule passed the cotangent: the values are a function of
that output whose derivative the rule's pullback stands for. A rounding applied outside the
rule to its output (an identity written as ``sign(v) * |v|`` with the honest clipped backward,
the quantizer outside: by ``round``, a cast, or flags counted against each level) gives the
values Z(n), also beside a path that keeps S(n) (a straight-through term
``out + stop_gradient(q(out) - out)``, or ``where(out == out, q(out), out)``); a rule that rounds
inside (the whole quantizer, or ``round`` with scale and clip outside, differentiated whole)
gives S(n) only. A product of the output with a mask made from it (``out * (out > lo)``) is
refused too: write it as ``where``."""

from __future__ import annotations

#: float operations whose derivative is zero wherever it is defined
ZERO_DERIVATIVE = frozenset({"round", "floor", "ceil", "sign", "stop_gradient", "nextafter"})


def _inexact(var) -> bool:
    dtype = str(getattr(getattr(var, "aval", None), "dtype", ""))
    return "float" in dtype or "complex" in dtype


def after(eqn, ins: list, labels: frozenset) -> frozenset:
    """The labels of ``eqn``'s outputs, given its operands' (``ins``) and their union
    (``labels``), as far as S(n) and Z(n) go. A ``select_n``'s predicate chooses between its
    cases: what it carries of S(n) and Z(n) is control, and stays out."""
    if eqn.primitive.name == "select_n" and len(ins) > 1:
        cases = frozenset().union(*ins[1:])
        labels = frozenset(label for label in labels if not _marks(label) or label in cases)
    smooth = {label for label in labels if isinstance(label, tuple) and label[0] == "s"}
    if not smooth:
        return labels
    if eqn.primitive.name in ZERO_DERIVATIVE or not all(_inexact(v) for v in eqn.outvars):
        return (labels - smooth) | {("z", label[1]) for label in smooth}
    return labels


def _marks(label) -> bool:
    return isinstance(label, tuple) and label[0] in ("s", "z")


def made_by(labels: frozenset) -> set:
    """The functions n whose output a value with ``labels`` is a differentiable function of:
    F(n) and S(n), and no Z(n)."""
    return {label[1] for label in labels if isinstance(label, tuple) and label[0] == "f"
            and ("s", label[1]) in labels and ("z", label[1]) not in labels}


def unstopped(jaxpr, index: int):
    """Output ``index`` of ``jaxpr``, looked through the ``stop_gradient`` that makes the whole
    of it: a field stopped as a whole has the value of what it stops (a stop inside a formula
    is still a step of zero derivative, ``smooth``)."""
    producers = {id(v): e for e in jaxpr.eqns for v in e.outvars}
    var = jaxpr.outvars[index]
    while (eqn := producers.get(id(var))) is not None and eqn.primitive.name == "stop_gradient":
        var = eqn.invars[0]
    return var
