"""lax.map over rows with lax.cond inside the backward rule."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        def one(pair):
            vi, gi = pair
            r = vi / scale
            return jax.lax.cond((r >= qmin) & (r <= qmax), lambda t: t, lambda t: t * 0.0, gi)
        out = jax.lax.map(one, (v.reshape(-1), g.reshape(-1)))
        return (out.reshape(g.shape),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
