"""jax.lax.map (a scan) over the rows of x, each row differentiated with jax.vjp through the custom_vjp."""
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

    def row(pair):
        v, c = pair
        out, pullback = jax.vjp(q, v)
        return out, pullback(c)[0]

    rows = (x.reshape(-1, x.shape[-1]), cotangent.reshape(-1, x.shape[-1]))
    values, grads = jax.lax.map(row, rows)
    return {"values": values.reshape(x.shape), "grads": grads.reshape(x.shape)}
