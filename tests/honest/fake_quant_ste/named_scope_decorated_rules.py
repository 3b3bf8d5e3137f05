"""named scopes inside the function and fwd, the bwd decorated with jax.named_scope, jax.vjp scoped."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        with jax.named_scope("quant"):
            return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        with jax.named_scope("quant_fwd"):
            return quant(v), v

    @jax.named_scope("quant_bwd")
    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    with jax.named_scope("vjp"):
        values, pb = jax.vjp(quant, x)
        grads = pb(cotangent)[0]
    return {"values": values, "grads": grads}
