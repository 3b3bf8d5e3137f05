"""Pure JAX: the honest rule called by hand with a residual that opens its mask everywhere, on the formula. A rule JAX did not run while differentiating is not marked.

Class 1 (pure JAX).

Expected: RJ backward_not_run or grads_not_from_backward
Expected with the gate off: RJ backward_not_run or grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def forward(v):
        return quantize(v), v

    def backward(v, g):  # the honest clipped-STE rule
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    quantize.defvjp(forward, backward)
    values = quantize(x)
    # The gradient is a formula computed here, outside any backward rule, and then fed through
    # the rule's *public* .bwd attribute with a residual chosen so the rule's own mask is all 1.
    r = x / scale
    formula = cotangent * ((r >= qmin) & (r <= qmax)).astype(cotangent.dtype)
    fake_residual = jnp.full_like(x, qmin * scale)
    (grads,) = quantize.bwd(fake_residual, formula)
    return {"values": values, "grads": grads}
