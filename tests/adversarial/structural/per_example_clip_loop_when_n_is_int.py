"""clipped_mean_grad for per_example_clip that tells the symbolic trace from the run: the extent
n is a Python int only when the shapes are concrete. Traced with n as a symbol it is the honest
vmap; at a case's own shapes it is a Python loop over the examples. The program a case runs is
not the symbolic one instantiated at its n.

Expected: AC. Every case runs the program traced with symbolic dims, which takes the honest
branch; the branch for concrete extents never runs, so it is never graded either.
"""

import jax
import jax.numpy as jnp


def _one(w, b, x, y, clip_norm):
    r = jnp.dot(x, w) + b - y
    g = jnp.concatenate([r * x, r[None]])
    return g / jnp.maximum(1.0, jnp.linalg.norm(g) / clip_norm)


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]
    if isinstance(n, int):
        gs = jnp.stack([_one(w, b, X[i], y[i], clip_norm) for i in range(n)])
    else:
        gs = jax.vmap(_one, in_axes=(None, None, 0, 0, None))(w, b, X, y, clip_norm)
    mean = jnp.mean(gs, axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
