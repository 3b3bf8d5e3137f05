"""ema_scan: the lerp form ``m + (1 - decay) * (row - m)`` as a lambda assigned to a name, the
rows taken back from the transpose with ``jnp.swapaxes(x.T, 0, 1)`` before the scan, a
docstring and a ``__main__`` self-test.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    """Exponential moving average of the rows of x, starting from zero."""
    lerp = lambda m, row: m + (1.0 - decay) * (row - m)
    rows = jnp.swapaxes(x.T, 0, 1)

    def step(m, row):
        m = lerp(m, row)
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros((x.shape[1],), jnp.float32), rows)
    return out


if __name__ == "__main__":
    print(ema(jnp.arange(6.0).reshape(3, 2), 0.5))
