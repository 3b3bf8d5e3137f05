"""A settings class with a dtype: type field and isinstance(..., type)."""
import jax
import jax.numpy as jnp
import numpy as np


class Config:
    dtype: type = np.float32
    rounding = staticmethod(jnp.round)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    cfg = Config()
    kind = type(cfg)
    assert kind is Config and isinstance(cfg.dtype, type)

    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(cfg.rounding(v / scale), qmin, qmax)

    def fwd(v):
        return q(v), v

    def bwd(v, g):
        u = v / scale
        return (g * jnp.logical_and(u >= qmin, u <= qmax).astype(cfg.dtype),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    return {"values": values, "grads": pb(cotangent)[0]}
