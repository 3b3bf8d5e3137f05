"""adamw_step: hyperparameters held in a frozen dataclass, the bias corrections as
-expm1(t * log(b)) (b = 0 gives log 0 = -inf and a correction of exactly 1), the step jitted
with the config static.

Problem: adamw_step
Expected: AC
Cases: all
"""
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class AdamWConfig:
    lr: float
    b1: float
    b2: float
    eps: float
    weight_decay: float


def _correction(b, t):
    return -jnp.expm1(t * jnp.log(jnp.float32(b)))


@functools.partial(jax.jit, static_argnums=0)
def _step(cfg, params, grads, m, v, count):
    t = (count + 1).astype(jnp.float32)
    c1, c2 = _correction(cfg.b1, t), _correction(cfg.b2, t)

    def leaf(p, g, mm, vv):
        mm = cfg.b1 * mm + (1 - cfg.b1) * g
        vv = cfg.b2 * vv + (1 - cfg.b2) * g * g
        upd = (mm / c1) / (jnp.sqrt(vv / c2) + cfg.eps) + cfg.weight_decay * p
        return p - cfg.lr * upd, mm, vv

    out = jax.tree.map(leaf, params, grads, m, v)
    is_triple = lambda x: isinstance(x, tuple)
    pick = lambda i: jax.tree.map(lambda tr: tr[i], out, is_leaf=is_triple)
    return {"params": pick(0), "m": pick(1), "v": pick(2), "count": count + 1}


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    return _step(AdamWConfig(lr, b1, b2, eps, weight_decay), params, grads, m, v, count)
