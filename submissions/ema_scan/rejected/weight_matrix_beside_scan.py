"""The EMA as a T x T matrix of decay powers times x, averaged with a real scan (so the
recurrence reaches the output, and its results show in it): the closed form is refused by the
size rule, a (T, T) value growing as T^2."""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    t = jnp.arange(T)
    lag = t[:, None] - t[None, :]
    W = jnp.where(lag >= 0, (1.0 - decay) * decay ** jnp.maximum(lag, 0).astype(x.dtype), 0.0)

    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, scanned = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    closed = W @ x
    return closed + 0.5 * (scanned - closed)
