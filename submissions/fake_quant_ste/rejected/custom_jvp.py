"""Uses jax.custom_jvp instead of jax.custom_vjp: the JVP rule multiplies the
tangent by the clipped-STE mask, and jax.vjp transposes that linear rule, so
values and grads are numerically correct.

Expected verdict: rejected -- the problem requires a jax.custom_vjp quantizer
with fwd/bwd attached via defvjp; custom_jvp/defjvp is a different mechanism.
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_jvp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    @quant.defjvp
    def quant_jvp(primals, tangents):
        (v,), (t,) = primals, tangents
        u = v / scale
        m = ((u >= qmin) & (u <= qmax)).astype(t.dtype)
        return quant(v), t * m

    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
