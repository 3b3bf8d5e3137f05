import jax
import jax.numpy as jnp

from functools import partial


@partial(jax.jit, static_argnames=("lr", "period"))
def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    x16, y16 = x.astype(f16), y.astype(f16)

    def scaled_loss(w, b, w2):
        pred = jnp.tanh(x16 @ w + b) @ w2
        err = pred - y16
        return jnp.sum(err * err) / f16(x.shape[0]) * loss_scale.astype(f16)

    leaves = (params["dense"]["w"], params["dense"]["b"], params["out"]["w"])
    grads = jax.grad(scaled_loss, argnums=(0, 1, 2))(*(a.astype(f16) for a in leaves))
    g = [a.astype(jnp.float32) / loss_scale for a in grads]
    # the sum of the gradient is finite exactly when every entry is (no float32 overflow here)
    finite = jnp.isfinite(sum(jnp.sum(a) for a in g))
    w, b, w2 = (jnp.where(finite, p - lr * d, p) for p, d in zip(leaves, g))
    grow = jnp.logical_and(finite, good_steps + 1 == period)
    scale = jnp.where(finite, loss_scale, loss_scale / 2) * jnp.where(grow, 2.0, 1.0)
    good = jnp.where(finite, (good_steps + 1) % period, 0)
    return {"params": {"dense": {"w": w, "b": b}, "out": {"w": w2}},
            "loss_scale": scale.astype(jnp.float32), "good_steps": good.astype(jnp.int32),
            "finite": finite}
