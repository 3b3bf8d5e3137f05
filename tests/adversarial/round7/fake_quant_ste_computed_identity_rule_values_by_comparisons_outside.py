"""fake_quant_ste, cheat: the identity written as a computation with the honest clipped
backward, and the values counted out of comparisons of the rule's output with each level
(``sum_k (u > k + 0.5)``): the values reach the rule's output only through flags.

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
    levels = jnp.arange(-300, 301, dtype=x.dtype)
    mid = levels[:-1] + 0.5
    # round half to even: a tie goes up where the level below is odd
    below_odd = jnp.remainder(levels[:-1], 2) == 1
    up = (u[..., None] > mid) | ((u[..., None] == mid) & below_odd)
    rounded = levels[0] + jnp.sum(up, axis=-1).astype(x.dtype)
    values = scale * jnp.clip(rounded, qmin, qmax)
    return {"values": values, "grads": back(cotangent)[0]}
