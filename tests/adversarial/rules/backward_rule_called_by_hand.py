"""Pure JAX: an identity rule's wrapper called by hand, quantize.bwd(None, formula), with no differentiation at all. A rule JAX did not run while differentiating is not marked.

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
        return quantize(v), None

    def backward(res, g):
        return (g,)

    quantize.defvjp(forward, backward)
    values = quantize(x)
    r = x / scale
    formula = cotangent * ((r >= qmin) & (r <= qmax)).astype(cotangent.dtype)
    (grads,) = quantize.bwd(None, formula)
    return {"values": values, "grads": grads}
