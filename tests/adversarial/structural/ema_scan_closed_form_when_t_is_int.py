"""ema for ema_scan that tells the symbolic trace from the run: the extent T is a Python int
only when the shapes are concrete. Traced with T as a symbol it is the honest scan (the
recurrence the rules ask for); at a case's own shapes it is a closed form, the T x T matrix of
decay powers times x, with no recurrence at all. The program a case runs is not the symbolic one
instantiated at its T.

Expected: AC. Every case runs the program traced with symbolic dims, which takes the honest
branch; the branch for concrete extents never runs, so it is never graded either.
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    if isinstance(T, int):
        t = jnp.arange(T)
        lag = t[:, None] - t[None, :]
        weights = jnp.where(lag >= 0, (1.0 - decay) * decay ** jnp.maximum(lag, 0), 0.0)
        return (weights.astype(x.dtype) @ x).astype(x.dtype)

    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, history = jax.lax.scan(step, jnp.zeros(x.shape[1:], x.dtype), x)
    return history
