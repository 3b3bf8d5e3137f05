"""ema_scan: a ``lax.while_loop`` tested by ``jnp.logical_and(T > t, jnp.all(jnp.isfinite(m)))``
with ``T = x.shape[0]``. With T a symbol, ``T > t`` is the symbolic dim's own comparison,
which asks for t as a number and raises (JAX's doing: ``t < T`` or ``jnp.greater(T, t)``
trace): the statement says the code sees T as a symbol, and the verdict names the line.

Problem: ema_scan
Expected: RJ traced_value_concretized
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def body(s):
        t, m, out = s
        m = decay * m + (1.0 - decay) * x[t]
        return t + 1, m, out.at[t].set(m)

    def cond(s):
        t, m, _ = s
        return jnp.logical_and(T > t, jnp.all(jnp.isfinite(m)))

    _, _, out = jax.lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
