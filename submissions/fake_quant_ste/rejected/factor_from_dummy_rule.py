"""Formula gradients multiplied by the pullback of a dummy custom_vjp whose backward rule
returns ones. Whatever the judge does to backward rules reaches the gradient through that
factor, but the cotangent itself reaches the gradient through the formula, around every rule.

Expected verdict: rejected (grads_not_from_backward).
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def dummy(v):
    return v


dummy.defvjp(lambda v: (v, None), lambda _, g: (jnp.ones_like(g),))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quantize.defvjp(lambda v: (quantize(v), None), lambda _, g: (g,))
    u = x / scale
    mask = ((u >= qmin) & (u <= qmax)).astype(x.dtype)
    factor = jax.vjp(dummy, x)[1](jnp.ones_like(x))[0]
    return {"values": quantize(x), "grads": cotangent * mask * factor}
