"""fake_quant_ste: the flattened input split into two halves (sizes known at trace time), the
quantizer a ``custom_vjp`` of the pair that returns a pair, its backward rule a pair of masked
cotangents; the halves joined and reshaped back.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def one(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def keep(v):
        r = v / scale
        return ((r >= qmin) & (r <= qmax)).astype(v.dtype)

    @jax.custom_vjp
    def q(pair):
        a, b = pair
        return one(a), one(b)

    def fwd(pair):
        return q(pair), pair

    def bwd(pair, gs):
        (a, b), (ga, gb) = pair, gs
        return ((ga * keep(a), gb * keep(b)),)

    q.defvjp(fwd, bwd)
    k = x.size // 2

    def apply(v):
        flat = v.reshape(-1)
        a, b = q((flat[:k], flat[k:]))
        return jnp.concatenate([a, b]).reshape(v.shape)

    values, pb = jax.vjp(apply, x)
    return {"values": values, "grads": pb(cotangent)[0]}
