"""batched_attention: a ``jax.custom_vjp`` on the one-example function, its backward rule
written out (dv = w^T g, ds = w * (g v^T - rowsum), dq = ds k / sqrt(d), dk = ds^T q /
sqrt(d)), mapped by ``jax.vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _weights(q, k, mask):
    s = q @ k.T / jnp.sqrt(q.shape[-1])
    return jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)


@jax.custom_vjp
def attend(q, k, v, mask):
    return _weights(q, k, mask) @ v


def attend_fwd(q, k, v, mask):
    w = _weights(q, k, mask)
    return w @ v, (q, k, v, mask, w)


def attend_bwd(res, g):
    q, k, v, mask, w = res
    scale = 1.0 / jnp.sqrt(q.shape[-1])
    dv = w.T @ g
    dw = g @ v.T
    ds = w * (dw - jnp.sum(dw * w, axis=-1, keepdims=True))
    dq = ds @ k * scale
    dk = ds.T @ q * scale
    return dq, dk, dv, None


attend.defvjp(attend_fwd, attend_bwd)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
