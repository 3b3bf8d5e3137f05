"""Straight-through sign with jax.custom_jvp: the tangent passes through unchanged, and JAX
derives the VJP by transposing that linear rule, so both probes see the identity.

Expected: accepted.
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x):
    return jnp.sign(x)


@ste_quantize.defjvp
def _ste_quantize_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return jnp.sign(x), t
