import jax
import jax.numpy as jnp


def _forward(q, k, v, mask):
    scale = 1.0 / jnp.sqrt(jnp.float32(q.shape[-1]))
    scores = jnp.where(mask, (q @ k.T) * scale, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    return weights @ v, weights, scale


@jax.custom_vjp
def attend(q, k, v, mask):
    return _forward(q, k, v, mask)[0]


def attend_fwd(q, k, v, mask):
    out, weights, scale = _forward(q, k, v, mask)
    return out, (q, k, v, weights, scale, mask)


def attend_bwd(res, g):
    q, k, v, weights, scale, mask = res
    gv = weights.T @ g
    gw = g @ v.T
    gs = weights * (gw - jnp.sum(gw * weights, axis=-1, keepdims=True))
    return gs @ k * scale, gs.T @ q * scale, gv, None


attend.defvjp(attend_fwd, attend_bwd)


@jax.jit
def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
