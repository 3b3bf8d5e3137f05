"""sign_ste: a callable class whose ``__call__`` adds the exact zero ``x - stop_gradient(x)`` to
the stopped sign (the zero first, so no rounding touches the sign), exported as the entry point
by an instance.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class StraightThroughSign:
    """sign(x) forward, identity backward."""

    def __call__(self, x: jax.Array) -> jax.Array:
        zero = x - jax.lax.stop_gradient(x)
        return zero + jax.lax.stop_gradient(jnp.sign(x))


ste_quantize = StraightThroughSign()
