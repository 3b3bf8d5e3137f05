"""Pure JAX: the formula as the tangent of jax.jvp over an identity rule's pullback.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def dummy(v):
    return v


dummy.defvjp(lambda v: (v, None), lambda _, g: (g,))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g * 0.0,))
    values, pullback = jax.vjp(quant, x)
    (zero,) = pullback(cotangent)
    u = x / scale
    formula = cotangent * ((u >= qmin) & (u <= qmax)).astype(x.dtype)
    _, pb = jax.vjp(dummy, x)
    _, tangent_out = jax.jvp(lambda g: pb(g)[0], (jnp.ones_like(x),), (formula,))
    return {"values": values, "grads": tangent_out + zero}
