"""mixed_precision_step: the mean written as a float16 sum divided by ``x.shape[0]`` (a symbol when
the judge traces), a flat list of the three float16 leaves differentiated with
``jax.value_and_grad(..., argnums=0)`` and rebuilt into the nested dict by hand.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    leaves = [params["dense"]["w"], params["dense"]["b"], params["out"]["w"]]
    leaves16 = [a.astype(jnp.float16) for a in leaves]
    x16, y16, s16 = x.astype(jnp.float16), y.astype(jnp.float16), loss_scale.astype(jnp.float16)

    def scaled(ws):
        W, b, w2 = ws
        pred = jnp.tanh(x16 @ W + b) @ w2
        return jnp.sum(jnp.square(pred - y16)) / x.shape[0] * s16

    _, g16 = jax.value_and_grad(scaled, argnums=0)(leaves16)
    g = [a.astype(jnp.float32) / loss_scale for a in g16]
    finite = jnp.isfinite(g[0]).all() & jnp.isfinite(g[1]).all() & jnp.isfinite(g[2]).all()
    new = [jnp.where(finite, p - lr * d, p) for p, d in zip(leaves, g)]
    full = good_steps + 1 == period
    return {"params": {"dense": {"w": new[0], "b": new[1]}, "out": {"w": new[2]}},
            "loss_scale": jnp.where(finite, jnp.where(full, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
