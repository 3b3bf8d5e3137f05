"""Pure JAX: a dummy identity rule run once for real, then its bwd called on the formula through jax.vmap. A rule JAX did not run while differentiating is not marked.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def ident(v):
        return v

    ident.defvjp(lambda v: (v, None), lambda _, g: (g,))
    values = scale * jnp.clip(jnp.round(ident(x) / scale), qmin, qmax)
    u = x / scale
    formula = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    jax.vjp(ident, x)[1](cotangent)  # a real run of the rule, so the rule "ran"
    (grads,) = jax.vmap(ident.bwd, in_axes=(None, 0))(None, formula[None])
    return {"values": values, "grads": grads[0]}
