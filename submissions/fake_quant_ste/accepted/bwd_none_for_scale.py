"""custom_vjp with scale as an ordinary (differentiable-position) argument; the
bwd rule returns None as the cotangent for scale (JAX treats None as a
symbolic zero), and the fwd rule calls the custom_vjp function itself.
qmin/qmax are closed over.  Only x is differentiated (jax.vjp over x).

Expected verdict: accepted (exact values and clipped-STE grads produced by the
custom backward rule).
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(v, s):
        return s * jnp.clip(jnp.round(v / s), qmin, qmax)

    def fq_fwd(v, s):
        return fq(v, s), (v, s)

    def fq_bwd(res, g):
        v, s = res
        u = v / s
        m = (u >= qmin) & (u <= qmax)
        return jnp.where(m, g, jnp.zeros_like(g)), None

    fq.defvjp(fq_fwd, fq_bwd)

    values, pullback = jax.vjp(lambda v: fq(v, scale), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
