"""ema_scan: the student splits the d columns into two halves (d is the case's number; the
first half may be empty) carried as a tuple by one ``lax.scan``, each half with its own running
mean, and joins the halves with ``jnp.concatenate`` after the loop.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    half = x.shape[1] // 2
    a, b = x[:, :half], x[:, half:]

    def step(carry, rows):
        ma, mb = carry
        ra, rb = rows
        ma = decay * ma + (1 - decay) * ra
        mb = decay * mb + (1 - decay) * rb
        return (ma, mb), (ma, mb)

    _, (oa, ob) = lax.scan(step, (jnp.zeros_like(a[0]), jnp.zeros_like(b[0])), (a, b))
    return jnp.concatenate([oa, ob], axis=1)
