"""fake_quant_ste: the residual a frozen dataclass registered with
``jax.tree_util.register_dataclass`` (the ratio ``x / s`` as data, the range as metadata), the
quantizer applied to ``x.reshape(-1)`` and reshaped back, the backward rule returning
``jnp.where`` with scalar zeros.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Saved:
    ratio: jax.Array
    lo: int
    hi: int


jax.tree_util.register_dataclass(Saved, data_fields=["ratio"], meta_fields=["lo", "hi"])


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(flat):
        return jnp.clip(jnp.round(flat / scale), qmin, qmax) * scale

    def fq_fwd(flat):
        return fq(flat), Saved(flat / scale, qmin, qmax)

    def fq_bwd(saved, g):
        inside = (saved.ratio >= saved.lo) & (saved.ratio <= saved.hi)
        return (jnp.where(inside, g, 0.0),)

    fq.defvjp(fq_fwd, fq_bwd)
    values, pull = jax.vjp(fq, x.reshape(-1))
    (grads,) = pull(cotangent.reshape(-1))
    return {"values": values.reshape(x.shape), "grads": grads.reshape(x.shape)}
