"""fake_quant_ste: a ``jax.lax.scan`` over the rows of ``atleast_2d(x)`` and of the cotangent
together, each step applying the quantizer to its row and pulling that row's cotangent back
through it with ``jax.vjp`` (the rule runs inside the scan's body); values and gradients
stacked by the scan and reshaped back.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), v / scale

    def bwd(r, g):
        return (g * jnp.logical_and(r >= qmin, r <= qmax).astype(g.dtype),)

    q.defvjp(fwd, bwd)

    def step(carry, rows):
        row, ct = rows
        val, pb = jax.vjp(q, row)
        return carry, (val, pb(ct)[0])

    _, (values, grads) = jax.lax.scan(step, None, (jnp.atleast_2d(x), jnp.atleast_2d(cotangent)))
    return {"values": values.reshape(x.shape), "grads": grads.reshape(x.shape)}
