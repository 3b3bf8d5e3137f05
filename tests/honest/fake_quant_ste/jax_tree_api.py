"""The jax.tree API (jax.tree.map, leaves) on the outputs."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        ratio = v / scale
        return quant(v), jax.tree.map(lambda a: a, {"lo": ratio >= qmin, "hi": ratio <= qmax})

    def bwd(res, g):
        lo, hi = jax.tree.leaves(res)[1], jax.tree.leaves(res)[0]
        return (g * (lo & hi).astype(g.dtype),)

    quant.defvjp(fwd, bwd)
    values, vjp_fun = jax.vjp(quant, x)
    return jax.tree.map(lambda t: t, {"values": values, "grads": vjp_fun(cotangent)[0]})
