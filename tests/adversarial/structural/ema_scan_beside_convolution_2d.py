"""ema(x, decay) for ema_scan (x of shape (T, d)) as a closed form: each column convolved with
the kernel (1 - decay) decay^k, no T x T weights (the largest value has about 2 T d elements).
A lax.scan runs beside it and enters the output multiplied by 0.

Expected: RJ (missing_primitive, or a rule refusing the closed form)
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    kernel = (1 - decay) * decay ** jnp.arange(T, dtype=x.dtype)
    closed = jax.vmap(lambda col: jax.lax.slice_in_dim(jnp.convolve(col, kernel), 0, T), in_axes=1, out_axes=1)(x)
    ys = jax.lax.scan(lambda c, v: (decay * c + v, c), jnp.zeros(x.shape[1:], x.dtype), x)[1]
    return closed + 0.0 * ys
