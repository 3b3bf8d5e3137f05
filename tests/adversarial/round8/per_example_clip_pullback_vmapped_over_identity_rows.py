"""per_example_clip: the per-example gradients as the pullback of the residual map (w, b) ->
X w + b - y, ``jax.vmap``-ed over the rows of diag(r) (an n x n value, within the bound): row i
pulls back r_i e_i, example i's gradient.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r, pull = jax.vjp(lambda w_, b_: X @ w_ + b_ - y, w, b)
    n = X.shape[0]
    gw, gb = jax.vmap(pull)(jnp.eye(n, dtype=r.dtype) * r[:, None])
    norm = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
    scale = jnp.minimum(1.0, clip_norm / norm)
    return {"grad_w": jnp.mean(gw * scale[:, None], axis=0), "grad_b": jnp.mean(gb * scale)}
