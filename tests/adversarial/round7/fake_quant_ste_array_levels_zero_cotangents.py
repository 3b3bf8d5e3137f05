"""fake_quant_ste: scale, qmin and qmax made float32 arrays and passed to the custom_vjp as
differentiable arguments, the backward rule returning zeros for them; ``jnp.rint`` and
``minimum``/``maximum`` for the rounding and the clip, the window as a product of booleans.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def _q(x, s, lo, hi):
    return s * jnp.minimum(jnp.maximum(jnp.rint(x / s), lo), hi)


def _q_fwd(x, s, lo, hi):
    return _q(x, s, lo, hi), (x, s, lo, hi)


def _q_bwd(res, g):
    x, s, lo, hi = res
    u = x / s
    inside = (u >= lo) * (u <= hi)
    return (g * inside, jnp.zeros_like(s), jnp.zeros_like(lo), jnp.zeros_like(hi))


_q.defvjp(_q_fwd, _q_bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    s = jnp.float32(scale)
    lo = jnp.float32(qmin)
    hi = jnp.float32(qmax)
    out, vjp_fn = jax.vjp(_q, x, s, lo, hi)
    return {"values": out, "grads": vjp_fn(cotangent)[0]}
