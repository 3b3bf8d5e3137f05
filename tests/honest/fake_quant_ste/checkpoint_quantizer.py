"""The custom_vjp quantizer wrapped in jax.checkpoint (rematerialised) before jax.vjp."""
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
    values, pullback = jax.vjp(jax.checkpoint(q), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
