"""A custom_jvp quantizer differentiated under jax.vmap inside a jax.lax.cond, times the factor from
a dummy custom_vjp: the custom_jvp trick behind two wrappers.

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

    def one(v, c):
        (g,) = jax.vjp(quant, v)[1](c)
        (factor,) = jax.vjp(dummy, v)[1](jnp.ones_like(v))
        return g * factor

    def branch(operands):
        v, c = operands
        return jax.vmap(one)(v.reshape(-1), c.reshape(-1)).reshape(v.shape)

    values = quantizer(scale, qmin, qmax)(x)
    grads = jax.lax.cond(jnp.max(x) > jnp.min(x) - 1.0, branch, branch, (x, cotangent))
    return {"values": values, "grads": grads}
