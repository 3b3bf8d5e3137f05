"""The backward rule attached by a decorator of the student's own, named register (no built-in has that name)."""
import jax
import jax.numpy as jnp


def register(fwd, bwd):
    def attach(fn):
        fn.defvjp(fwd, bwd)
        return fn
    return attach


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def quantize_fwd(v):
        return quantize(v), v

    def quantize_bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)).astype(g.dtype),)

    @register(quantize_fwd, quantize_bwd)
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    values, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
