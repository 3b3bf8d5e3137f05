"""fake_quant_ste, cheat: the identity written as a computation with the honest clipped
backward, and the values counted out of comparisons with each level, put beside the rule's
output in a ``where`` that always takes them (``where(out == out, q(out), out)``): one case of
the ``where`` keeps a path the pullback follows, the one taken reaches the output only through
flags.

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
    below_odd = jnp.remainder(levels[:-1], 2) == 1
    up = (u[..., None] > mid) | ((u[..., None] == mid) & below_odd)
    rounded = levels[0] + jnp.sum(up, axis=-1).astype(x.dtype)
    values = jnp.where(out == out, scale * jnp.clip(rounded, qmin, qmax), out)
    return {"values": values, "grads": back(cotangent)[0]}
