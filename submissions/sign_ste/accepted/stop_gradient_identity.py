"""Straight-through sign with stop_gradient, written so nothing cancels: the identity part
(x - stop_gradient(x)) is exactly zero in the forward pass, so large inputs keep their sign.

Expected: accepted.
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    zero_with_unit_slope = x - jax.lax.stop_gradient(x)
    return zero_with_unit_slope + jax.lax.stop_gradient(jnp.sign(x))
