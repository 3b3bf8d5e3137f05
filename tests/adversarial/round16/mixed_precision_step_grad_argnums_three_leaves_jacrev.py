"""mixed_precision_step, honest: the three float16 leaves passed as separate arguments and
differentiated by ``jax.jacrev(..., argnums=(0, 1, 2))`` (of a scalar, the gradient), then put
back in a dict; casts by ``lax.convert_element_type``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda a: lax.convert_element_type(a, jnp.float16)
    W, b, w2 = h(params["dense"]["w"]), h(params["dense"]["b"]), h(params["out"]["w"])
    x16, y16, s16 = h(x), h(y), h(loss_scale)

    def loss(W, b, w2):
        pred = jnp.tanh(x16 @ W + b) @ w2
        return jnp.average(jnp.square(pred - y16)) * s16

    gW, gb, gw2 = jax.jacrev(loss, argnums=(0, 1, 2))(W, b, w2)
    g = {"dense": {"w": gW, "b": gb}, "out": {"w": gw2}}
    g = jax.tree.map(lambda a: lax.convert_element_type(a, jnp.float32) / loss_scale, g)
    finite = jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]).all()
    grow = finite & (good_steps + 1 == period)
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale + loss_scale, loss_scale), loss_scale * 0.5),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
