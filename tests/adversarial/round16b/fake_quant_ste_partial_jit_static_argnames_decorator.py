"""fake_quant_ste: honest code with the whole function under a
``functools.partial(jax.jit, static_argnames=...)`` decorator, the scale and levels static, and the
gradient taken with ``jax.grad`` of a weighted sum.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _make(scale, qmin, qmax):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        r = v / scale
        return q(v), jnp.logical_and(r >= qmin, r <= qmax)

    def bwd(inside, g):
        return (jnp.where(inside, g, 0.0),)

    q.defvjp(fwd, bwd)
    return q


@functools.partial(jax.jit, static_argnames=("scale", "qmin", "qmax"))
def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    q = _make(scale, qmin, qmax)
    values = q(x)
    grads = jax.grad(lambda v: jnp.sum(q(v) * cotangent))(x)
    return {"values": values, "grads": grads}
