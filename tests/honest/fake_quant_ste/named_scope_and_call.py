"""jax.named_scope and jax.named_call around the quantizer."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        with jax.named_scope("fake_quant_forward"):
            return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        with jax.named_scope("ste_mask"):
            r = v / scale
            return (g * ((r >= qmin) & (r <= qmax)),)

    quant.defvjp(fwd, bwd)
    named = jax.named_call(quant, name="quantizer")
    with jax.named_scope("outer"):
        values, pullback = jax.vjp(named, x)
        grads = pullback(cotangent)[0]
    return {"values": values, "grads": grads}
