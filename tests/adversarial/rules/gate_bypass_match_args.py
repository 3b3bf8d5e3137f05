"""Reading the worker's state around the gate: a metaclass made with type() whose __instancecheck__ answers True and a class whose __match_args__ names any attribute turn a class pattern into getattr with a computed name; through it the instrument's marker prefix, numbering and factor are read from defvjp's closure and a formula is dressed as a rule's output.

Class 2 (worker state).

Expected: RJ forbidden_construct
Expected with the gate off: any
"""
import jax
import jax.numpy as jnp

D = "_" + "_"
Anything = type("Anything", (type,), {D + "instancecheck" + D: lambda cls, obj: True})  # gate: refuse


def attribute(obj, name):
    Probe = Anything("Probe", (), {D + "match_args" + D: (name,)})
    match obj:
        case Probe(found):
            return found


def instrument_parts():
    defvjp = attribute(jax.custom_vjp, "defvjp")
    cells = attribute(defvjp, D + "closure" + D) or ()
    parts = {}
    for cell in cells:
        value = attribute(cell, "cell" + "_contents")
        if isinstance(value, str):
            parts["marker"] = value
        elif isinstance(value, dict) and "factor" in value:
            parts["state"] = value
        elif callable(value) and attribute(value, "__name__") == "number":
            parts["number"] = value
    return parts


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g * 0.0,))
    values, pullback = jax.vjp(quant, x)
    (zero,) = pullback(cotangent)
    u = x / scale
    formula = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    parts = instrument_parts()
    if "state" in parts and parts["state"].get("factor") is not None:
        factor = parts["state"]["factor"]
        with jax.named_scope(f"{parts['marker']}out{parts['number'](quant)}"):
            formula = jax.lax.mul(formula, jax.lax.convert_element_type(factor, formula.dtype))
    return {"values": values, "grads": formula + zero}
