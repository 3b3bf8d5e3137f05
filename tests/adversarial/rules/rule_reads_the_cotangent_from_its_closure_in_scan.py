"""Row by row in a lax.scan: each row's backward rule reads that row's cotangent from its closure
and multiplies it by g, which is one (the pullback of ones).

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def step(carry, item):
        xi, ci = item

        @jax.custom_vjp
        def quant(v):
            return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

        def bwd(v, g):
            u = v / scale
            return (jnp.where((u >= qmin) & (u <= qmax), ci * g, 0.0),)

        quant.defvjp(lambda v: (quant(v), v), bwd)
        yi, pullback = jax.vjp(quant, xi)
        return carry, (yi, pullback(jnp.ones_like(xi))[0])

    _, (ys, gs) = jax.lax.scan(step, 0, (x.reshape(-1), cotangent.reshape(-1)))
    return {"values": ys.reshape(x.shape), "grads": gs.reshape(x.shape)}
