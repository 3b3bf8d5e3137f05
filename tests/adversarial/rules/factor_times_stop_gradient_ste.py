"""A stop_gradient straight-through estimator, x * m + stop_gradient(q(x) - x * m), differentiated
with jax.vjp, its grads multiplied by the factor from a dummy custom_vjp's pullback.

Class 1 (pure JAX).
Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


@jax.custom_vjp
def dummy(v):
    return v


dummy.defvjp(lambda v: (v, None), lambda _, g: (jnp.ones_like(g),))


def formula(x, scale, qmin, qmax, cotangent):
    u = x / scale
    return cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def ste(v):
        u = v / scale
        m = jax.lax.stop_gradient(((u >= qmin) & (u <= qmax)).astype(v.dtype))
        q = scale * jnp.clip(jnp.round(u), qmin, qmax)
        return v * m + jax.lax.stop_gradient(q - v * m)

    values = quantizer(scale, qmin, qmax)(x)
    (grads,) = jax.vjp(ste, x)[1](cotangent)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    return {"values": values, "grads": grads * factor}
