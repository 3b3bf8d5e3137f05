"""ema_scan, cheat: the moving average by a doubling prefix scan (Hillis-Steele: add decay^k
times the rows k back, k = 1, 2, 4, ...) in a ``lax.while_loop`` whose shift is carried as a
float: the right numbers in log2 T trips, no recurrence of length T.

Problem: ema_scan
Expected: RJ missing_primitive
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    idx = jnp.arange(T)

    def body(s):
        k, y, p = s
        shifted = jnp.roll(y, k.astype(jnp.int32), axis=0)
        shifted = jnp.where((idx >= k)[:, None], shifted, 0.0)
        return k * 2.0, y + p * shifted, p * p

    init = (jnp.float32(1.0), (1.0 - decay) * x, jnp.float32(decay))
    _, y, _ = jax.lax.while_loop(lambda s: s[0] < T, body, init)
    return y
