import jax
import jax.numpy as jnp
import numpy as np


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)

    def host_scale(*xs):
        g = np.sqrt(sum(float(np.sum(np.square(x, dtype=np.float64))) for x in xs))
        return np.float32(1.0 if g <= max_norm else max_norm / g)

    scale = jax.pure_callback(host_scale, jax.ShapeDtypeStruct((), jnp.float32), *leaves)
    return jax.tree_util.tree_unflatten(treedef, [x * scale for x in leaves])
