"""The EMA as a cumulative sum of decay-scaled rows, beside a real scan whose result is added
times zero: the closed form's cumsum is a forbidden primitive."""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    t = jnp.arange(T).astype(x.dtype)[:, None]
    safe = jnp.maximum(decay, 0.5)       # decay ** -t stays finite for T <= 64
    closed = (1.0 - safe) * safe ** t * jnp.cumsum(x * safe ** (-t), axis=0)

    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, scanned = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return 0.0 * closed + scanned
