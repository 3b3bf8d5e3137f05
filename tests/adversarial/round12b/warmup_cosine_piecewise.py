"""warmup_cosine: ``jnp.piecewise`` of the float step with the conditions ``s < w``, ``s <= T``
and the three phases as lambdas (the last a constant 0).

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    w, T = warmup_steps, total_steps
    return jnp.piecewise(
        s,
        [s < w, (s >= w) & (s <= T)],
        [lambda u: base_lr * u / max(w, 1),
         lambda u: 0.5 * base_lr * (1 + jnp.cos(jnp.pi * (u - w) / (T - w))),
         0.0],
    )
