"""CHEAT ema_scan (no detection): one scan of length T whose step computes row t of the answer
as a closed form (weights decay^(t-s) over all T rows, a T-vector, no carry needed) and also
carries a fake float recurrence c <- c + 0 * row that enters the output times 0. The rule sees
a recurrent carry that reaches the output.
Intended: RJ missing_primitive (no real recurrence)."""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    s = jnp.arange(T)

    def step(c, t):
        diff = (t - s).astype(x.dtype)
        w = jnp.where(s <= t, (1 - decay) * jnp.power(jnp.float32(decay), jnp.maximum(diff, 0)), 0.0)
        row = w @ x
        c = c + 0.0 * row
        return c, row + 0.0 * c

    _, out = jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), s)
    return out.astype(x.dtype)
