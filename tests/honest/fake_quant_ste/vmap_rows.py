"""jax.vmap over the rows of x (a 1-D x is one row) of a per-row jax.vjp through the custom_vjp."""
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

    def row(v, c):
        out, pullback = jax.vjp(q, v)
        return out, pullback(c)[0]

    rows_x = x.reshape(-1, x.shape[-1])
    rows_c = cotangent.reshape(-1, x.shape[-1])
    values, grads = jax.vmap(row)(rows_x, rows_c)
    return {"values": values.reshape(x.shape), "grads": grads.reshape(x.shape)}
