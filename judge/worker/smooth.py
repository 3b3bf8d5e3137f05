"""Whether a field computed by a custom_vjp function depends on that function's output along a
path the pullback follows (``provenance``'s ``computed``; worker side, measures only).

The output marker of function n gives what it computed from its input F(n) and S(n): "reached
from function n's output by operations each of which has a derivative JAX follows". An
operation of zero derivative on a float (``round``, ``floor``, ``ceil``, ``sign``,
``stop_gradient``, a cast to a whole number) takes S(n) off and gives Z(n): "reached from it
through an operation whose derivative is zero"; an operation whose result is a flag or a whole
number (a comparison, ``argmax``) takes S(n) off and gives nothing (a mask chosen by the output,
``where(out > hi, hi, out)``, is control, not the values' path). Every other operation carries
the labels of its operands (a sum or a ``where`` keeps S(n) where one operand has it).

A field that the function must compute then needs, at each of its parts, F(n) and S(n) and no
Z(n) for one function n whose backward rule passed the cotangent: the values are a function of
that output whose derivative the rule's pullback stands for. A rounding applied outside the
rule to its output (an identity written as ``sign(v) * |v|`` with the honest clipped backward,
the quantizer outside) gives the values Z(n) and no S(n), and the same rounding beside a
straight-through path (``out + stop_gradient(q(out) - out)``) gives Z(n); a rule that rounds
inside (the whole quantizer, or ``round`` with scale and clip outside, differentiated whole)
gives S(n) only."""

from __future__ import annotations

#: float operations whose derivative is zero wherever it is defined
ZERO_DERIVATIVE = frozenset({"round", "floor", "ceil", "sign", "stop_gradient", "nextafter"})


def _inexact(var) -> bool:
    dtype = str(getattr(getattr(var, "aval", None), "dtype", ""))
    return "float" in dtype or "complex" in dtype


def after(eqn, labels: frozenset) -> frozenset:
    """The labels of ``eqn``'s outputs, given the union of its operands' (``labels``), as far
    as S(n) and Z(n) go."""
    smooth = {label for label in labels if isinstance(label, tuple) and label[0] == "s"}
    if not smooth:
        return labels
    name = eqn.primitive.name
    whole = not all(_inexact(v) for v in eqn.outvars)
    if name in ZERO_DERIVATIVE or (whole and name == "convert_element_type"
                                   and all(_inexact(v) for v in eqn.invars[:1])):
        return (labels - smooth) | {("z", label[1]) for label in smooth}
    if whole:
        return labels - smooth
    return labels


def made_by(labels: frozenset) -> set:
    """The functions n whose output a value with ``labels`` is a differentiable function of:
    F(n) and S(n), and no Z(n)."""
    return {label[1] for label in labels if isinstance(label, tuple) and label[0] == "f"
            and ("s", label[1]) in labels and ("z", label[1]) not in labels}
