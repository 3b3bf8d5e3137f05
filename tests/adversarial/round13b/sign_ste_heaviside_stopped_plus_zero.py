"""sign_ste: the sign as ``2 * heaviside(x, 0.5) - 1`` (0.5 at zero gives 0, for -0.0 too),
stopped, after the exact zero ``x - stop_gradient(x)``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    s = 2 * jnp.heaviside(x, jnp.asarray(0.5, x.dtype)) - 1
    return (x - jax.lax.stop_gradient(x)) + jax.lax.stop_gradient(s.astype(x.dtype))
