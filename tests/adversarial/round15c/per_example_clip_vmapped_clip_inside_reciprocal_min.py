"""per_example_clip: one example's gradient and its clip in one function (``jax.grad`` with
``argnums=(0, 1)``, the factor ``jnp.minimum(1, C * jnp.reciprocal(norm))``, infinite and
harmless at a zero gradient), mapped with ``jax.vmap`` over the rows; ``jnp.float32`` casts of
``clip_norm``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    C = jnp.float32(clip_norm)

    def clipped(x, t):
        loss = lambda w_, b_: 0.5 * (jnp.dot(x, w_) + b_ - t) ** 2
        gw, gb = jax.grad(loss, argnums=(0, 1))(w, b)
        norm = jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2)
        factor = jnp.minimum(jnp.float32(1.0), C * jnp.reciprocal(norm))
        return gw * factor, gb * factor

    gw, gb = jax.vmap(clipped)(X, y)
    return {"grad_w": gw.mean(axis=0), "grad_b": gb.mean()}
