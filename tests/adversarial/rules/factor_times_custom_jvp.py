"""A jax.custom_jvp quantizer whose JVP rule multiplies the tangent by the mask, differentiated
with jax.vjp (JAX transposes the linear rule), its grads multiplied by the factor from a dummy
custom_vjp's pullback.

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
    @jax.custom_jvp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    @quant.defjvp
    def quant_jvp(primals, tangents):
        (v,), (t,) = primals, tangents
        u = v / scale
        return quant(v), t * ((u >= qmin) & (u <= qmax)).astype(t.dtype)

    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    return {"values": values, "grads": grads * factor}
