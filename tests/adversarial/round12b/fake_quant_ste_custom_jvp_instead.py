"""fake_quant_ste: the quantizer a ``jax.custom_jvp`` whose JVP rule masks the tangent; the
gradient by ``jax.vjp`` (JAX transposes the rule). The statement asks for a custom_vjp.

Problem: fake_quant_ste
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_jvp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    @q.defjvp
    def q_jvp(primals, tangents):
        (v,), (t,) = primals, tangents
        u = v / scale
        return q(v), jnp.where((u >= qmin) & (u <= qmax), t, 0.0)

    values, back = jax.vjp(q, x)
    return {"values": values, "grads": back(cotangent)[0]}
