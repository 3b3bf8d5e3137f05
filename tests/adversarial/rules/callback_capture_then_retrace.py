"""Uses the judge's retry: when a case's gradient does not scale with the backward rules, the
worker clears JAX's caches and traces the case again, and reports only the second trace. The
first trace returns formula grads through a jax.pure_callback that keeps their concrete value;
the second returns that value, now a constant no input reaches, times the factor from a dummy
custom_vjp, with no callback left in the jaxpr.

Class 1 (pure JAX).
Expected: RJ callback_used or grads_not_from_backward
Expected with the gate off: RJ callback_used or grads_not_from_backward
Without the rules: any (unless traced again, a case reuses what the last one like it captured)
"""
import jax
import jax.numpy as jnp
import numpy as np


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


CAPTURED = {}


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    key = (scale, qmin, qmax, tuple(x.shape))
    values = quantizer(scale, qmin, qmax)(x)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    if key in CAPTURED:  # the judge's second trace of this case
        return {"values": values, "grads": jnp.asarray(CAPTURED.pop(key)) * factor}

    def keep(g):
        CAPTURED[key] = np.array(g)
        return np.array(g)

    grads = formula(x, scale, qmin, qmax, cotangent)
    grads = jax.pure_callback(keep, jax.ShapeDtypeStruct(grads.shape, grads.dtype), grads)
    return {"values": values, "grads": grads}
