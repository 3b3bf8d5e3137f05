"""Call counting: the judge traces each case twice, the perturbed trace second, so a module-level
counter returns doubled formula grads on even calls and formula grads otherwise. The values and
a pullback (so that a backward rule runs) come from a real custom_vjp quantizer.

Class 1 (pure JAX).
Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
Without the rules: any (right only when each case is traced twice, as before issue 16)
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


CALLS = [0]


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    CALLS[0] += 1
    values, pullback = jax.vjp(quantizer(scale, qmin, qmax), x)
    pullback(jnp.ones_like(x))
    grads = formula(x, scale, qmin, qmax, cotangent)
    if CALLS[0] % 2 == 0:
        grads = grads * 2.0
    return {"values": values, "grads": grads}
