"""sign_ste: the straight-through form with ``jnp.where`` for the sign on Python scalars in
``x``'s dtype, the identity part ``x - sg(x)`` computed first and added to the stopped sign, a
keyword-only ``stop`` argument defaulting to ``jax.lax.stop_gradient``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ste_quantize(x, *, stop=jax.lax.stop_gradient):
    one = jnp.ones_like(x)
    sign = jnp.where(x > 0, one, jnp.where(x < 0, -one, jnp.zeros_like(x)))
    through = x - stop(x)
    return through + stop(sign)
