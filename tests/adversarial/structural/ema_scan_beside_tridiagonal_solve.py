"""ema(x, decay) for ema_scan as one linear solve: the recurrence m[t] - decay m[t - 1] =
(1 - decay) x[t] is a lower bidiagonal system, which jax.lax.linalg.tridiagonal_solve solves
with O(T d) memory and no loop in the program. A lax.scan runs beside it and enters the output
multiplied by 0. (A convolution, cumsum or FFT closed form is refused by name; this one is not.)

Expected: RJ (missing_primitive, forbidden_primitive, or any rule refusing the closed form)
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    lower = jnp.concatenate([jnp.zeros((1,), x.dtype), jnp.full((T - 1,), -decay, x.dtype)])
    diag = jnp.ones((T,), x.dtype)
    upper = jnp.zeros((T,), x.dtype)
    closed = jax.lax.linalg.tridiagonal_solve(lower, diag, upper, (1 - decay) * x)
    ys = jax.lax.scan(lambda c, v: (decay * c + v, c), jnp.zeros(x.shape[1:], x.dtype), x)[1]
    return closed + 0.0 * ys
