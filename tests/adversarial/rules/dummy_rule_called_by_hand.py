"""Pure JAX: a plain quantizer, and a dummy identity custom_vjp's bwd called by hand on the formula. A rule JAX did not run while differentiating is not marked.

Class 1 (pure JAX).

Expected: RJ backward_not_run or grads_not_from_backward
Expected with the gate off: RJ backward_not_run or grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    # A dummy identity custom_vjp, applied to x once; its backward rule is never run by any
    # differentiation: its public .bwd is called directly on a formula.
    @jax.custom_vjp
    def ident(v):
        return v

    ident.defvjp(lambda v: (v, None), lambda res, g: (g,))
    values = scale * jnp.clip(jnp.round(ident(x) / scale), qmin, qmax)
    r = x / scale
    grads = ident.bwd(None, cotangent * ((r >= qmin) & (r <= qmax)).astype(cotangent.dtype))[0]
    return {"values": values, "grads": grads}
