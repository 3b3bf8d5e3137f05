"""mixed_precision_step, cheat: the forward pass in float16 under a ``jax.custom_vjp`` whose
backward rule computes the gradient in float32 (the float16 values cast up, products and tanh's
derivative in float32) and casts it back to float16, so ``jax.grad`` runs no float16 backward
pass.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def _scaled_loss(p, x, y, s):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean((hid @ p["out"]["w"] - y) ** 2) * s


def _fwd(p, x, y, s):
    return _scaled_loss(p, x, y, s), (p, x, y, s)


def _bwd(res, ct):
    p, x, y, s = jax.tree.map(lambda a: a.astype(jnp.float32), res)
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    dpred = 2.0 * (hid @ p["out"]["w"] - y) / x.shape[0] * s * ct.astype(jnp.float32)
    dpred = jnp.where(jnp.abs(dpred) > 65504.0, jnp.inf * jnp.sign(dpred), dpred)
    dz = jnp.outer(dpred, p["out"]["w"]) * (1 - hid * hid)
    grads = {"dense": {"w": x.T @ dz, "b": dz.sum(0)}, "out": {"w": hid.T @ dpred}}
    f16 = lambda t: jax.tree.map(lambda a: a.astype(jnp.float16), t)
    return f16(grads), jnp.zeros_like(res[1]), jnp.zeros_like(res[2]), jnp.zeros_like(res[3])


_scaled_loss.defvjp(_fwd, _bwd)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = lambda t: jax.tree.map(lambda a: a.astype(jnp.float16), t)
    grads = jax.grad(_scaled_loss)(f16(params), *f16((x, y, loss_scale)))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
