"""ema(x, decay) as a closed form: a convolution of x with the kernel (1 - decay) decay^k, which
needs no T x T weights (its largest value has 2T - 1 elements). A lax.scan runs beside it and
its result enters the output multiplied by 0, so the scan is "live" though it computes nothing
the answer needs.

Expected: RJ (missing_primitive, or a rule refusing the closed form)
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    kernel = (1 - decay) * decay ** jnp.arange(T, dtype=x.dtype)
    closed = jax.lax.slice_in_dim(jnp.convolve(x, kernel), 0, T)
    ys = jax.lax.scan(lambda c, v: (decay * c + v, c), jnp.zeros((), x.dtype), x)[1]
    return closed + 0.0 * ys
