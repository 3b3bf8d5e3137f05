"""fake_quant_ste: the quantizer applied row by row inside a ``jax.lax.scan`` over the rows of
``jnp.atleast_2d(x)`` (the rows stacked as the scan's outputs, no carry worth the name), reshaped
back; the gradient a ``jax.vjp`` through the scan, so each row's cotangent passes the rule.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def make_quantizer(scale: float, qmin: int, qmax: int):
    @jax.custom_vjp
    def q(row):
        return scale * jnp.clip(jnp.round(row / scale), qmin, qmax)

    def q_fwd(row):
        return q(row), row

    def q_bwd(row, g):
        r = row / scale
        keep = jnp.logical_and(r >= qmin, r <= qmax)
        return (g * keep.astype(g.dtype),)

    q.defvjp(q_fwd, q_bwd)
    return q


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    q = make_quantizer(scale, qmin, qmax)

    def rows(v):
        v2 = jnp.atleast_2d(v)
        _, out = jax.lax.scan(lambda c, row: (c, q(row)), 0.0, v2)
        return out.reshape(v.shape)

    values, pullback = jax.vjp(rows, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
