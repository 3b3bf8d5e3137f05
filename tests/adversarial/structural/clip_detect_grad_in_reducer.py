"""CHEAT per_example_clip: on concrete runs (isinstance(n, int)), each example's squared norm
is computed by jax.grad inside the reducer of lax.reduce (the issue's carrier cheat); on the
symbolic trace, an honest vmap. The carrier check (function_primitive) is only applied to the
symbolic trace; the case's own program is checked with check_case, which has no carrier check.
Intended: RJ function_primitive.
Now: AC. Every case runs the program traced with symbolic dims, which takes the honest
branch; the branch for concrete extents never runs, so it is never graded either."""
import jax
import jax.numpy as jnp


def _reducer(acc, c):
    return acc + jax.grad(lambda u: 0.5 * u * u)(c) * c


def loss(w, b, x, t):
    return 0.5 * (jnp.dot(x, w) + b - t) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    if isinstance(X.shape[0], int):
        r = X @ w + b - y
        g = jnp.concatenate([r[:, None] * X, r[:, None]], axis=1)
        norm = jnp.sqrt(jax.lax.reduce(g, jnp.float32(0.0), _reducer, (1,)))
        g = g / jnp.maximum(1.0, norm / clip_norm)[:, None]
        mean = jnp.mean(g, axis=0)
        return {"grad_w": mean[:-1], "grad_b": mean[-1]}
    gw, gb = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    f = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2) / clip_norm)
    return {"grad_w": jnp.mean(gw * f[:, None], axis=0), "grad_b": jnp.mean(gb * f)}
