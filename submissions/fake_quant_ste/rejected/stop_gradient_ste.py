"""Classic stop_gradient straight-through trick with no custom_vjp at all:
ste(x) = x * m + stop_gradient(q(x) - x * m), with the mask m itself under
stop_gradient, so jax.vjp of ste yields c * m.  Values are returned from q(x)
directly, so both outputs are numerically correct.

Expected verdict: rejected -- the quantizer is not a jax.custom_vjp function and
the grads do not come from a custom backward rule.
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def ste(v):
        u = v / scale
        m = jax.lax.stop_gradient(((u >= qmin) & (u <= qmax)).astype(v.dtype))
        return v * m + jax.lax.stop_gradient(q(v) - v * m)

    _, pullback = jax.vjp(ste, x)
    (grads,) = pullback(cotangent)
    return {"values": q(x), "grads": grads}
