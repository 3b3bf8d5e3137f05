"""Attack: a custom_jvp whose primal is plain JAX and whose JVP rule (which jax.vjp
linearizes and transposes) takes its tangent scale from the host through pure_callback."""
import jax
import jax.numpy as jnp
import numpy as np


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)
    sizes = [x.size for x in leaves]

    @jax.custom_jvp
    def clip_flat(flat):
        sq = jnp.sum(flat * flat)
        return flat * (max_norm / jnp.maximum(jnp.sqrt(sq), max_norm))

    @clip_flat.defjvp
    def clip_flat_jvp(primals, tangents):
        (flat,), (dflat,) = primals, tangents

        def host(x):
            x = np.asarray(x, np.float64)
            g = np.sqrt(np.sum(x * x))
            if g <= max_norm:
                return np.float32(1.0), np.zeros_like(x, np.float32)
            return np.float32(max_norm / g), (x / g).astype(np.float32)

        s, u = jax.pure_callback(host, (jax.ShapeDtypeStruct((), jnp.float32),
                                        jax.ShapeDtypeStruct(flat.shape, jnp.float32)), flat)
        return clip_flat(flat), s * (dflat - u * jnp.vdot(u, dflat))

    flat = jnp.concatenate([jnp.ravel(x) for x in leaves])
    out = clip_flat(flat)
    parts, start = [], 0
    for x, n in zip(leaves, sizes):
        parts.append(out[start:start + n].reshape(x.shape))
        start += n
    return jax.tree_util.tree_unflatten(treedef, parts)
