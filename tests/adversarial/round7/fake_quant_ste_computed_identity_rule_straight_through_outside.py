"""fake_quant_ste, cheat: the identity written as a computation (``sign(v) * |v|``) with the
honest clipped backward, and the rounding added outside as a straight-through term
(``out + stop_gradient(q(out) - out)``): the values have a path to the rule's output that the
pullback follows, and another through ``round`` and ``stop_gradient``, whose derivative is
zero (the values also differ on a hidden case by the rounding of the sum).

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
    values = out + jax.lax.stop_gradient(rounded - out)
    return {"values": values, "grads": back(cotangent)[0]}
