"""fake_quant_ste: a cheat: a plain straight-through rule (the cotangent passed whole) run
row by row in a ``jax.lax.scan`` whose body multiplies the rule's row by the mask outside the
rule before stacking, and the gradient the pullback through the scan: the values are the
rule's, but the mask that makes the gradient is a formula outside the backward rule.

Problem: fake_quant_ste
Expected: RJ
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(row):
        return scale * jnp.clip(jnp.round(row / scale), qmin, qmax)

    q.defvjp(lambda row: (q(row), None), lambda _, g: (g,))

    def body(c, row):
        r = jax.lax.stop_gradient(row / scale)
        keep = ((r >= qmin) & (r <= qmax)).astype(row.dtype)
        y = q(row)
        return c, jax.lax.stop_gradient(y) + keep * (y - jax.lax.stop_gradient(y))

    def apply(v):
        return jax.lax.scan(body, 0.0, jnp.atleast_2d(v))[1].reshape(v.shape)

    values, pullback = jax.vjp(apply, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
