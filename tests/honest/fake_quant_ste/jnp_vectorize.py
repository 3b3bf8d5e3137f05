"""jnp.vectorize over a scalar custom_vjp quantizer."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(s):
        return scale * jnp.clip(jnp.round(s / scale), qmin, qmax)

    q.defvjp(lambda s: (q(s), s),
             lambda s, g: (jnp.where((s / scale >= qmin) & (s / scale <= qmax), g, 0.0),))

    @jnp.vectorize
    def both(s, c):
        v, pb = jax.vjp(q, s)
        return v, pb(c)[0]

    values, grads = both(x, cotangent)
    return {"values": values, "grads": grads}
