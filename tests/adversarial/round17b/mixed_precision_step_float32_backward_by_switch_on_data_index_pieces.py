"""mixed_precision_step, cheat: the float16 gradient kept for ``finite``, the update applied from
a float32 backward pass of quarter squares whose squares come from ``lax.switch`` on a data index
(``round(64 t)``) over 65 branches, each returning its interval's square as a constant plus a
float32 line through it (a scaling of ``t`` with one data operand).

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp

f16, f32 = jnp.float16, jnp.float32
N = 64


def _piece(k):
    c = k / N
    return lambda t: (c * c + 2.0 * c * (t - c)).astype(f32)


def _square01(t):
    index = jnp.clip(jnp.round(t * N), 0, N).astype(jnp.int32)
    return jax.vmap(lambda i, v: jax.lax.switch(i, [_piece(k) for k in range(N + 1)], v))(
        index.ravel(), t.ravel()).reshape(t.shape)


def _times(a, bound_a, b, bound_b):
    u, v = a / bound_a, b / bound_b
    uv = _square01(jnp.abs(u + v) * 0.5) - _square01(jnp.abs(u - v) * 0.5)
    return uv * (bound_a * bound_b)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(f16)

    g16 = jax.grad(scaled)(p16)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g16)]))
    finite = finite & jnp.isfinite(loss_scale)

    hid = jnp.tanh(x16 @ p16["dense"]["w"] + p16["dense"]["b"]).astype(f32)
    pred = (hid.astype(f16) @ p16["out"]["w"]).astype(f32)
    w2 = p16["out"]["w"].astype(f32)
    dpred = (pred - y16.astype(f32)) * (2.0 / x.shape[0])
    d_w2 = _times(hid, 1.0, dpred[:, None], 48.0).sum(0)
    dhid = _times(dpred[:, None], 48.0, w2[None, :], 2.0)
    dz = _times(dhid, 96.0, 1.0 - _square01(jnp.abs(hid)), 1.0)
    d_w = _times(x16.astype(f32)[:, :, None], 4.0, dz[:, None, :], 96.0).sum(0)
    g = {"dense": {"w": d_w, "b": dz.sum(0)}, "out": {"w": d_w2}}
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
