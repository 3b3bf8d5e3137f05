"""Computes in float32 and forgets to cast back: right numbers, wrong dtype for float16 and
bfloat16 inputs.

Expected: wrong answer (wrong_dtype on the half-precision cases).
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    x32 = x.astype(jnp.float32)
    return (x32 - jax.lax.stop_gradient(x32)) + jax.lax.stop_gradient(jnp.sign(x32))
