"""Reads the judge's perturbation as a Python number: under jax.ensure_compile_time_eval the dummy
custom_vjp's pullback is computed eagerly, so the factor is concrete while the submission runs and
a Python branch returns formula grads scaled by it (or, if it is not concrete, multiplies by it).

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
    values = quantizer(scale, qmin, qmax)(x)
    grads = formula(x, scale, qmin, qmax, cotangent)
    try:
        with jax.ensure_compile_time_eval():
            seen = float(jax.vjp(dummy, jnp.ones(()))[1](jnp.ones(()))[0])
    except Exception:  # the factor is traced: fall back to multiplying by it
        factor = jax.vjp(dummy, x)[1](jnp.ones_like(x))[0]
        return {"values": values, "grads": grads * factor}
    if seen != 1.0:
        grads = grads * seen
    return {"values": values, "grads": grads}
