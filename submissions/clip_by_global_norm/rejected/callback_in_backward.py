"""Attack: the forward pass is plain JAX; the backward rule of a custom_vjp computes the VJP
on the host with pure_callback. The traced forward program holds no callback."""
import jax
import jax.numpy as jnp
import numpy as np


def _host_vjp(max_norm, leaves, cts):
    g = np.sqrt(sum(np.sum(np.square(x, dtype=np.float64)) for x in leaves))
    if g <= max_norm:
        return [np.asarray(c, np.float32) for c in cts]
    dot = sum(np.sum(np.asarray(c, np.float64) * x) for c, x in zip(cts, leaves))
    return [(max_norm / g * np.asarray(c, np.float64) - max_norm * dot / g ** 3 * x).astype(np.float32)
            for c, x in zip(cts, leaves)]


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)

    @jax.custom_vjp
    def clip(*xs):
        sq = sum(jnp.sum(x * x) for x in xs)
        scale = max_norm / jnp.maximum(jnp.sqrt(sq), max_norm)
        return tuple(x * scale for x in xs)

    def fwd(*xs):
        return clip(*xs), xs

    def bwd(xs, cts):
        shapes = [jax.ShapeDtypeStruct(x.shape, jnp.float32) for x in xs]
        return tuple(jax.pure_callback(lambda a, b: _host_vjp(max_norm, a, b), shapes,
                                       list(xs), list(cts)))

    clip.defvjp(fwd, bwd)
    return jax.tree_util.tree_unflatten(treedef, list(clip(*leaves)))
