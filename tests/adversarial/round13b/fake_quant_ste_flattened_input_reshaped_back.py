"""fake_quant_ste: the quantizer written for 1-D arrays; a 2-D input is flattened before it and
the values and gradient reshaped back (``ravel``, ``reshape(x.shape)``), the cotangent flattened
to match.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q1d(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        s = v / scale
        return q1d(v), (s >= qmin) & (s <= qmax)

    q1d.defvjp(fwd, lambda mask, g: (jnp.where(mask, g, 0.0),))
    flat = jnp.ravel(x)
    values, pullback = jax.vjp(q1d, flat)
    (grads,) = pullback(jnp.ravel(cotangent))
    return {"values": values.reshape(x.shape), "grads": grads.reshape(x.shape)}
