"""warmup_cosine: the schedule computed in NumPy through ``jax.pure_callback`` inside a jitted
helper called under ``lax.cond``. Callbacks are refused wherever they are.

Problem: warmup_cosine
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np


def _np_schedule(s, base_lr, w, T):
    s = float(s)
    if s < w:
        return np.float32(base_lr * s / w)
    if s <= T:
        return np.float32(base_lr * 0.5 * (1 + np.cos(np.pi * (s - w) / (T - w))))
    return np.float32(0.0)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    spec = jax.ShapeDtypeStruct((), jnp.float32)

    @jax.jit
    def via_numpy(s):
        return jax.pure_callback(lambda v: _np_schedule(v, base_lr, warmup_steps, total_steps), spec, s)

    return jax.lax.cond(step >= 0, via_numpy, lambda s: jnp.float32(0), step)
