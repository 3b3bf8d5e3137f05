"""per_example_clip: ``jax.jacrev`` of the vector of n losses with respect to ``(w, b)``: the
(n, d) and (n,) Jacobians are the per-example gradients (JAX's n x n identity over the losses
fits the bound); a ``jnp.linalg.norm`` over the joined rows and ``jnp.minimum`` for the factor.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def losses(w, b):
        return 0.5 * jnp.square(X @ w + b - y)

    gw, gb = jax.jacrev(losses, argnums=(0, 1))(w, b)
    norms = jnp.linalg.norm(jnp.concatenate([gw, gb[:, None]], axis=1), axis=1)
    factor = jnp.minimum(1.0, clip_norm / jnp.where(norms > 0, norms, 1.0))
    return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}
