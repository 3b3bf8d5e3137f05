"""Reading the worker's state around the gate: the same with no dunder string: a metaclass class statement defining __instancecheck__, and dataclasses.make_dataclass with a computed field name generating __match_args__.

Class 2 (worker state).

Expected: RJ forbidden_construct
Expected with the gate off: any
"""
import dataclasses

import jax
import jax.numpy as jnp


class Anything(type):
    def __instancecheck__(cls, obj):  # gate: refuse
        return True


class Base(metaclass=Anything):
    pass


U = "_" * 2


def attribute(obj, name):
    Probe = dataclasses.make_dataclass("Probe", [(name, object)], bases=(Base,))
    match obj:
        case Probe(found):
            return found


def instrument_parts():
    cells = attribute(attribute(jax.custom_vjp, "defvjp"), U + "closure" + U) or ()
    parts = {}
    for cell in cells:
        value = attribute(cell, "cell" + "_contents")
        if isinstance(value, str):
            parts["marker"] = value
        elif isinstance(value, dict) and "factor" in value:
            parts["state"] = value
        elif callable(value) and value.__name__ == "number":
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
        with jax.named_scope(f"{parts['marker']}out{parts['number'](quant)}"):
            formula = jax.lax.mul(formula, jax.lax.convert_element_type(parts["state"]["factor"],
                                                                        formula.dtype))
    return {"values": values, "grads": formula + zero}
