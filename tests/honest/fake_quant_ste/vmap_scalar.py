"""jax.vmap of a scalar quantizer (custom_vjp on one entry) and its pullback."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q1(s):
        return scale * jnp.clip(jnp.round(s / scale), qmin, qmax)

    def fwd(s):
        return q1(s), s

    def bwd(s, g):
        r = s / scale
        return (jax.lax.select((r >= qmin) & (r <= qmax), g, jnp.zeros_like(g)),)

    q1.defvjp(fwd, bwd)

    def one(s, c):
        v, pb = jax.vjp(q1, s)
        return v, pb(c)[0]

    vals, grads = jax.vmap(one)(x.reshape(-1), cotangent.reshape(-1))
    return {"values": vals.reshape(x.shape), "grads": grads.reshape(x.shape)}
