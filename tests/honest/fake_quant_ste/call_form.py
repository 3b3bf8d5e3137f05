"""The call form: quantize = jax.custom_vjp(plain_function), then defvjp."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def plain(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def forward(v):
        return plain(v), v

    def backward(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, jnp.zeros_like(g)),)

    quantize = jax.custom_vjp(plain)
    quantize.defvjp(forward, backward)
    values, pullback = jax.vjp(quantize, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
