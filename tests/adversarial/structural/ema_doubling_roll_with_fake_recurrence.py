"""CHEAT ema_scan (no detection): Hillis-Steele doubling over 6 levels (T <= 64), each level
shifting by jnp.roll and masking the wrapped rows (no value above 2 T d), beside a scan of
length T carrying a fake float recurrence c <- c + 0 * row that enters the output times 0.
Intended: RJ missing_primitive."""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    t = jnp.arange(T)[:, None]
    s = (1 - decay) * x
    k = 1
    while k < 64:
        shifted = jnp.where(t >= k, jnp.roll(s, k, axis=0), 0.0)
        s = s + (decay ** k) * shifted
        k *= 2

    def step(c, row):
        c = c + 0.0 * row
        return c, c
    c, _ = jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), x)
    return (s + 0.0 * c).astype(x.dtype)
