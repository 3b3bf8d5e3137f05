"""fake_quant_ste, cheat: the straight-through term of
``fake_quant_ste_computed_identity_rule_straight_through_outside.py`` (an identity rule written
as a computation, the rounding added outside as ``out + stop_gradient(q(out) - out)``), the
whole field then stopped once more: a field stopped as a whole is read as what it stops, so the
inner stop is still a step of zero derivative.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def same(v):
        return jnp.sign(v) * jnp.abs(v)

    def fwd(v):
        return same(v), v

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)),)

    same.defvjp(fwd, bwd)
    out, back = jax.vjp(same, x)
    rounded = scale * jnp.clip(jnp.round(out / scale), qmin, qmax)
    values = jax.lax.stop_gradient(out + jax.lax.stop_gradient(rounded - out))
    return {"values": values, "grads": back(cotangent)[0]}
