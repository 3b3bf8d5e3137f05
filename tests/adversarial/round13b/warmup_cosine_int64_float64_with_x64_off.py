"""warmup_cosine: the step cast to ``int64`` and the arithmetic in ``float64`` as a student used
to NumPy writes it; with x64 off JAX keeps int32 and float32 (with a warning, printed and
ignored), and the result is cast to float32 at the end.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.int64)
    sf = s.astype(jnp.float64)
    warm = base_lr * sf / jnp.float64(max(warmup_steps, 1))
    prog = (sf - warmup_steps) / jnp.float64(total_steps - warmup_steps)
    cos = base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * prog))
    lr = jnp.where(s < warmup_steps, warm, jnp.where(s <= total_steps, cos, 0.0))
    return lr.astype(jnp.float32)
