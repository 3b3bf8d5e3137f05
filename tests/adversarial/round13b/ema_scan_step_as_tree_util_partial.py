"""ema_scan: the step a module-level function of the decay, bound with
``jax.tree_util.Partial`` (a pytree-friendly partial), and the scan's outputs the new averages.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def ema_step(decay, m, row):
    m = jnp.add(jnp.multiply(decay, m), jnp.multiply(1.0 - decay, row))
    return m, m


def ema(x, decay):
    step = Partial(ema_step, decay)
    _, out = jax.lax.scan(step, jnp.zeros((x.shape[1],), jnp.float32), x)
    return out
