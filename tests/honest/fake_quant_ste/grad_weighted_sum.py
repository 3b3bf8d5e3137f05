"""Grads as jax.grad of the weighted sum sum(q(x) * cotangent); values from a separate call of q."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def q_fwd(v):
        return q(v), v

    def q_bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)).astype(g.dtype),)

    q.defvjp(q_fwd, q_bwd)
    grads = jax.grad(lambda v: jnp.sum(q(v) * cotangent))(x)
    return {"values": q(x), "grads": grads}
