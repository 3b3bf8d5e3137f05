# the backward rule returns the mask; the cotangent multiplied in afterwards
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x):
        return q(x), x

    def bwd(x, g):
        return (((x / scale >= qmin) & (x / scale <= qmax)).astype(jnp.float32),)

    q.defvjp(fwd, bwd)
    values, pull = jax.vjp(q, x)
    return {"values": values, "grads": pull(jnp.ones_like(cotangent))[0] * cotangent}
