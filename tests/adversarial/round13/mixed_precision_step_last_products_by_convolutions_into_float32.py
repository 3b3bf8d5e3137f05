"""mixed_precision_step, cheat: the forward pass and the backward pass down to the pre-activation's
cotangent in float16 (by ``jax.vjp``), but the gradient's last products, x^T dz and hid^T dpred,
written as ``lax.conv_general_dilated`` of float16 operands accumulated and returned in float32
(``preferred_element_type``), float16's overflow imitated by comparing them with 65520. The
statement asks every matrix product of the backward pass to give a float16 result; a
``dot_general`` into float32 is refused, and a convolution is a matrix product too.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

F16, F32 = jnp.float16, jnp.float32


def _mm32(a, b):
    out = lax.conv_general_dilated(a[:, :, None], b.T[:, :, None], (1,), "VALID",
                                   dimension_numbers=("NCH", "OIH", "NCH"),
                                   preferred_element_type=F32)
    return out[:, :, 0]


def _as_float16_would(a):
    return jnp.where(jnp.abs(a) >= 65520.0, jnp.sign(a) * jnp.inf, a)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(F16), params)
    x16, y16, s16 = x.astype(F16), y.astype(F16), loss_scale.astype(F16)
    z = x16 @ p["dense"]["w"] + p["dense"]["b"]
    hid, tanh_pull = jax.vjp(jnp.tanh, z)
    pred = hid @ p["out"]["w"]
    dpred = jax.grad(lambda pr: jnp.mean((pr - y16) ** 2) * s16)(pred)
    (dz,) = tanh_pull(dpred[:, None] * p["out"]["w"][None, :])
    grads = {"dense": {"w": _mm32(x16.T, dz), "b": jnp.sum(dz.astype(F32), axis=0)},
             "out": {"w": _mm32(hid.T, dpred[:, None])[:, 0]}}
    g = jax.tree.map(lambda a: _as_float16_would(a) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
