"""jax.value_and_grad of the weighted sum with has_aux returning the quantized values."""
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
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    q.defvjp(q_fwd, q_bwd)

    def weighted(v):
        values = q(v)
        return jnp.sum(values * cotangent), values

    (_, values), grads = jax.value_and_grad(weighted, has_aux=True)(x)
    return {"values": values, "grads": grads}
