"""sign_ste, mistake: the sign as ``jnp.copysign(1.0, x)``, which gives ``+1`` (or ``-1`` for
``-0.0``) at zero where the statement's three-valued quantizer gives 0; the straight-through
derivative around it is right.

Problem: sign_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    q = jnp.copysign(jnp.ones_like(x), x)
    return x - jax.lax.stop_gradient(x) + jax.lax.stop_gradient(q)
