"""fake_quant_ste: the custom_vjp written for one scalar, ``jax.vmap``-ed over the raveled
entries and reshaped back; the gradient by ``jax.grad`` of ``jnp.vdot`` with the cotangent.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q1(e):
        return scale * jnp.clip(jnp.round(e / scale), qmin, qmax)

    def fwd(e):
        return q1(e), e

    def bwd(e, g):
        u = e / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, jnp.zeros_like(g)),)

    q1.defvjp(fwd, bwd)

    def q(x):
        return jax.vmap(q1)(x.ravel()).reshape(x.shape)

    grads = jax.grad(lambda v: jnp.vdot(q(v), cotangent))(x)
    return {"values": q(x), "grads": grads}
