import functools

import jax
import jax.numpy as jnp

tree = jax.tree_util


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    to = lambda dt: functools.partial(tree.tree_map, lambda a: a.astype(dt))
    p16 = to(jnp.float16)(params)
    x16, y16 = to(jnp.float16)((x, y))

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"][None, :])
        return jnp.mean(jnp.square(hid @ p["out"]["w"] - y16)) * loss_scale.astype(jnp.float16)

    g = tree.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled_loss)(p16))
    # one scalar per leaf; inf or nan anywhere makes the sum non-finite... except inf - inf, so
    # check every leaf's entries too
    per_leaf = tree.tree_map(lambda a: jnp.all(jnp.isfinite(a)), g)
    finite = tree.tree_reduce(jnp.logical_and, per_leaf)
    step = tree.tree_map(lambda p, d: p - lr * d * finite.astype(jnp.float32), params, g)
    new_params = tree.tree_map(lambda s, p: jnp.where(finite, s, p), step, params)
    done = good_steps + 1 >= period
    return dict(params=new_params,
                loss_scale=jnp.where(finite, jnp.where(done, loss_scale + loss_scale, loss_scale),
                                     loss_scale * 0.5),
                good_steps=jnp.where(finite, jnp.where(done, 0, good_steps + 1), 0).astype(jnp.int32),
                finite=finite)
