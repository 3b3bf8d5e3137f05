import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    flat = {}

    def collect(tree, prefix):
        for key, value in tree.items():
            if isinstance(value, dict):
                collect(value, prefix + key + "/")
            else:
                flat[prefix + key] = value

    collect(grads, "")
    sq = sum(jnp.sum(x * x) for x in flat.values())
    norm = jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
    scale = max_norm / jnp.maximum(norm, max_norm)
    return {path: x * scale for path, x in flat.items()}   # {"dense/w": ...}, not nested
