"""fake_quant_ste: the custom_vjp function takes ``scale`` as a second primal argument (a
Python float made a float32 array), its backward rule returns a zero cotangent for it with
``jnp.zeros_like``; qmin and qmax closed over; the gradient by ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(x, s):
        return s * jnp.clip(jnp.round(x / s), qmin, qmax)

    def fwd(x, s):
        return quant(x, s), (x, s)

    def bwd(res, g):
        x, s = res
        r = x / s
        inside = (r >= qmin) & (r <= qmax)
        return jnp.where(inside, g, jnp.zeros_like(g)), jnp.zeros_like(s)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x, jnp.float32(scale))
    grads, _ = pullback(cotangent)
    return {"values": values, "grads": grads}
