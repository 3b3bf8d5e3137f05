# a backward rule that ignores the cotangent it is handed and reads the argument instead
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x):
        return q(x), x

    def bwd(x, g):
        inside = (x / scale >= qmin) & (x / scale <= qmax)
        return (jnp.where(inside, cotangent, 0.0),)

    q.defvjp(fwd, bwd)
    values, pull = jax.vjp(q, x)
    return {"values": values, "grads": pull(jnp.zeros_like(cotangent))[0]}
