"""mixed_precision_step, cheat: ``tanh`` a ``jax.custom_jvp`` whose value is float16 ``tanh`` but
whose tangent rule widens t and the tangent to float32 and computes (1 - t^2) * dt there, cast
back to float16: the backward pass's products of the activation's derivative run in float32,
hidden in a differentiation rule.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def tanh16(z):
    return jnp.tanh(z)


@tanh16.defjvp
def _tanh16_jvp(primals, tangents):
    (z,), (dz,) = primals, tangents
    t = jnp.tanh(z)
    t32, dz32 = t.astype(jnp.float32), dz.astype(jnp.float32)
    return t, ((1.0 - t32 * t32) * dz32).astype(z.dtype)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda a: a.astype(jnp.float16)

    def loss(p):
        hid = tanh16(h(x) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - h(y)) ** 2) * h(loss_scale)

    grads = jax.grad(loss)(jax.tree.map(h, params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
