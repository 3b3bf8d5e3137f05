import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def q_fwd(x):
        return q(x), jnp.logical_and(x / scale >= qmin, x / scale <= qmax)

    def q_bwd(inside, g):
        return (jnp.where(inside, g, 0.0),)

    q.defvjp(q_fwd, q_bwd)
    grads = jax.grad(lambda x: jnp.sum(q(x) * cotangent))(x)
    return {"values": q(x), "grads": grads}
