"""fake_quant_ste, cheat: the identity written as a computation with the honest clipped
backward, and the values rounded outside by a cast to whole numbers (``floor(u + 0.5)`` as
``astype(int32)`` of a shifted value, ties to even fixed by hand): the values reach the rule's
output only through a cast whose derivative is zero.

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
    u = out / scale
    down = jnp.where(u < 0, -((-u).astype(jnp.int32)), u.astype(jnp.int32)).astype(x.dtype)
    down = jnp.where(down > u, down - 1, down)  # floor
    frac = u - down
    up = (frac > 0.5) | ((frac == 0.5) & (jnp.remainder(down, 2) == 1))
    values = scale * jnp.clip(down + up, qmin, qmax)
    return {"values": values, "grads": back(cotangent)[0]}
