"""fake_quant_ste: a quantizer factory under ``functools.cache`` keyed on ``(scale, qmin, qmax)``
returning a ``custom_vjp`` closure; the gradient as ``jax.grad`` of ``jnp.vdot(quantizer(x),
cotangent)``, the values from a second call of the quantizer.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.cache
def make_quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def q_fwd(x):
        return q(x), x

    def q_bwd(x, g):
        r = x / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(jnp.float32),)

    q.defvjp(q_fwd, q_bwd)
    return q


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    quantizer = make_quantizer(float(scale), int(qmin), int(qmax))
    grads = jax.grad(lambda a: jnp.vdot(quantizer(a), cotangent))(x)
    return {"values": quantizer(x), "grads": grads}
