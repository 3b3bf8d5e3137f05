"""Converts the input to a NumPy array (np.asarray(x)) and computes the mask in
NumPy before building the custom_vjp.  Called eagerly on concrete arrays it is
numerically correct.

Expected verdict: rejected -- under the judge's jax.make_jaxpr trace x is a
tracer, and np.asarray on it raises jax.errors.TracerArrayConversionError
(converting traced values to NumPy / Python numbers is forbidden).
"""
import jax
import jax.numpy as jnp
import numpy as np


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    x_np = np.asarray(x, dtype=np.float32)
    u_np = x_np / np.float32(scale)
    mask = jnp.asarray(((u_np >= qmin) & (u_np <= qmax)).astype(np.float32))

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        return quant(v), None

    def quant_bwd(_, g):
        return (g * mask,)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
