"""Call counting keyed on what a case looks like from inside (scale, qmin, qmax and the shape of x,
all concrete while tracing): the second time the same case is seen is the perturbed trace, which
gets doubled formula grads. A per-case count rather than a global parity.

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


SEEN = {}


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    key = (scale, qmin, qmax, tuple(x.shape))
    SEEN[key] = SEEN.get(key, 0) + 1
    values, pullback = jax.vjp(quantizer(scale, qmin, qmax), x)
    pullback(jnp.ones_like(x))
    grads = formula(x, scale, qmin, qmax, cotangent)
    if SEEN[key] % 2 == 0:
        grads = grads * 2.0
    return {"values": values, "grads": grads}
