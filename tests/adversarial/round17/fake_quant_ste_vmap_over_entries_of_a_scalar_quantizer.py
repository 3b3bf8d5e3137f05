"""fake_quant_ste: a scalar ``jax.custom_vjp`` quantizer mapped over the flattened entries with
``jax.vmap``, the pullback taken of the mapped function and reshaped back.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q1(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def q1_fwd(v):
        return q1(v), v

    def q1_bwd(v, g):
        r = v / scale
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    q1.defvjp(q1_fwd, q1_bwd)
    flat = x.reshape(-1)
    values, pullback = jax.vjp(jax.vmap(q1), flat)
    (grads,) = pullback(cotangent.reshape(-1))
    return {"values": values.reshape(x.shape), "grads": grads.reshape(x.shape)}
