"""adamw_step: module-level NumPy constants (``ONE = np.float32(1.0)``), ``jnp.float32`` casts of
every hyperparameter, the bias corrections inverted once with ``jnp.reciprocal`` and multiplied
in, ``assert`` on the structure at trace time, a docstring and a ``__main__`` self-test.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np

ONE = np.float32(1.0)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    """One AdamW step over a dict of arrays (optax.adamw with eps_root = 0)."""
    assert jax.tree_util.tree_structure(params) == jax.tree_util.tree_structure(grads)
    lr, b1, b2 = jnp.float32(lr), jnp.float32(b1), jnp.float32(b2)
    eps, wd = jnp.float32(eps), jnp.float32(weight_decay)
    t = count + 1
    inv1 = jnp.reciprocal(ONE - b1 ** t.astype(jnp.float32))
    inv2 = jnp.reciprocal(ONE - b2 ** t.astype(jnp.float32))
    new_m = jax.tree_util.tree_map(lambda a, g: b1 * a + (ONE - b1) * g, m, grads)
    new_v = jax.tree_util.tree_map(lambda a, g: b2 * a + (ONE - b2) * jnp.square(g), v, grads)
    new_p = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * (a * inv1 / (jnp.sqrt(b * inv2) + eps) + wd * p),
        params, new_m, new_v)
    return {"params": new_p, "m": new_m, "v": new_v, "count": t}


if __name__ == "__main__":
    p = {"w": jnp.array([1.0, -2.0]), "b": jnp.float32(0.5)}
    g = {"w": jnp.array([0.1, -0.2]), "b": jnp.float32(0.0)}
    z = jax.tree_util.tree_map(jnp.zeros_like, p)
    print(adamw_step(p, g, z, z, jnp.int32(0), 0.1, 0.9, 0.999, 1e-8, 0.01))
