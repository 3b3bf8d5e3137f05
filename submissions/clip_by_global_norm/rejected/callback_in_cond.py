"""Attack: the host norm hidden in a lax.cond branch inside a jitted helper; the other branch
is pure JAX, so a look at the top level of the program finds no callback."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _norm(flat):
    def host(x):
        return np.float32(np.linalg.norm(np.asarray(x, np.float64)))

    return jax.lax.cond(jnp.any(flat != 0),
                        lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct((), jnp.float32), x),
                        lambda x: jnp.float32(0.0), flat)


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)
    flat = jnp.concatenate([jnp.ravel(x) for x in leaves])
    g = jax.lax.stop_gradient(_norm(flat))
    sq = jnp.sum(flat * flat)
    g_diff = g + (sq - jax.lax.stop_gradient(sq)) / (2 * jnp.where(g > 0, g, 1.0))
    scale = max_norm / jnp.maximum(g_diff, max_norm)
    return jax.tree_util.tree_unflatten(treedef, [x * scale for x in leaves])
