"""fake_quant_ste: the rounding written once as a plain function ``_quant``; the custom_vjp's
primal and its forward rule both call ``_quant`` (not the custom_vjp), the residual ``x / s``
the forward rule computes; the module-level defvjp.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _quant(x, s, lo, hi):
    return s * jnp.clip(jnp.round(x / s), lo, hi)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(x):
        return _quant(x, scale, qmin, qmax)

    def fq_fwd(x):
        return _quant(x, scale, qmin, qmax), x / scale

    def fq_bwd(u, g):
        inside = jnp.logical_and(jnp.greater_equal(u, qmin), jnp.less_equal(u, qmax))
        return (jnp.where(inside, g, 0.0),)

    fq.defvjp(fq_fwd, fq_bwd)
    out, f_vjp = jax.vjp(fq, x)
    return {"values": out, "grads": f_vjp(cotangent)[0]}
