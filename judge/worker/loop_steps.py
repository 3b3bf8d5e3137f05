"""What a while loop's body does to its counter (``step``: the whole number it adds at each
trip, read through conversions and through a call of one body, a jitted body), and the
literals its tests and steps are read from (``whole``, ``fraction``), for ``loops``' count of
a while's trips. Runs in the worker; decides nothing."""

from __future__ import annotations

from fractions import Fraction

from . import jaxapi, symbolic
from .loop_tests import producer


def whole_dtype(eqn) -> bool:
    """Does a conversion make an integer or a float (a counter's own types)?"""
    return any(k in str(eqn.params.get("new_dtype", "")) for k in ("int", "float"))


def literal(var) -> bool:
    """Is ``var`` a literal of a jaxpr?"""
    return type(var).__name__ == "Literal"


def whole(value) -> int | None:
    """A literal's value as an int where it is a whole number of shape () (an integer, or a
    float with no fraction: a float counter ``i + 1.0``), else None."""
    array = symbolic.np.asarray(value)
    if array.shape != () or array.dtype.kind not in "iuf":
        return None
    if array.dtype.kind == "f" and not (symbolic.np.isfinite(array) and float(array).is_integer()
                                        and abs(float(array)) <= 2 ** 24):
        return None
    return int(array)


def fraction(value) -> Fraction | None:
    """A literal's value as a fraction where it is a finite float of shape () between two
    whole numbers (a bound such as 0.5), else None."""
    array = symbolic.np.asarray(value)
    if array.shape != () or array.dtype.kind != "f" or not symbolic.np.isfinite(array) \
            or float(array).is_integer() or abs(float(array)) > 2 ** 24:
        return None
    return Fraction(float(array))


def step(body, counter, out, passed=None, depth: int = 0) -> int:
    """What the body adds to the counter at each step (``i + c``, ``c + i``, ``i - c`` with
    ``c`` a literal, or a constant of the body whose value ``passed`` knows: a module-level
    ``jnp.int32(1)``), 0 where it does anything else. A conversion of the counter, or of the
    sum, to an integer or float type is looked through: ``i + jnp.int32(1)`` on a counter that
    started as a Python int converts the weakly typed ``i`` first; so is a call whose body
    makes the sum (a body that is a jitted function: ``called_step``)."""
    made = unconverted(body, producer(body, out))
    if made is not None and made.primitive.name in jaxapi.ONE_BODY_CALLS and depth < 4:
        return called_step(body, made, counter, out, passed, depth)
    if made is None or made.primitive.name not in ("add", "sub") or len(made.invars) != 2:
        return 0
    x, y = (converted_from(body, v, counter) for v in made.invars)
    if made.primitive.name == "add" and y is counter:
        x, y = y, x
    by = None
    if x is counter and literal(y):
        by = whole(y.val)
    elif x is counter and passed is not None:
        by = passed(y)
    if not isinstance(by, int) or not by:
        return 0
    return by if made.primitive.name == "add" else -by


def called_step(body, call, counter, out, passed, depth: int) -> int:
    """``step`` where the counter's next value is a result of ``call``, a call of one body
    taking its operands one for one (a jitted step: ``jax.jit(body)`` as a while's body): the
    step its body adds to the operand that is the counter (or the counter converted), its
    operands that the caller knows (literals, or constants ``passed`` knows) known inside."""
    inner = next((j for p in call.params.values() for j in jaxapi.sub_jaxprs(p)
                  if len(j.invars) == len(call.invars) and len(j.outvars) == len(call.outvars)), None)
    made = producer(body, out)
    result = out if made is call else (made.invars[0] if made is not None else None)
    at = next((k for k, v in enumerate(call.outvars) if v is result), None)
    ins = [converted_from(body, v, counter) for v in call.invars]
    where = [k for k, v in enumerate(ins) if v is counter]
    if inner is None or at is None or len(where) != 1:
        return 0

    def known(var):
        k = next((k for k, v in enumerate(inner.invars) if v is var), None)
        if k is None:
            return None
        outer = call.invars[k]
        return whole(outer.val) if literal(outer) else (passed(outer) if passed else None)
    return step(inner, inner.invars[where[0]], inner.outvars[at], known, depth + 1)


def unconverted(body, made):
    """``made``, or where it converts a value to an integer or float type, what made that
    value."""
    if made is not None and made.primitive.name == "convert_element_type" and whole_dtype(made):
        return producer(body, made.invars[0])
    return made


def converted_from(body, var, counter):
    """``counter`` where ``var`` is the counter converted to an integer or float type, else
    ``var``."""
    made = None if literal(var) else producer(body, var)
    if made is not None and made.primitive.name == "convert_element_type" and whole_dtype(made) \
            and made.invars[0] is counter:
        return counter
    return var
