"""fake_quant_ste: a factory returning a ``custom_vjp`` quantizer closed over the scale and the
levels (residual: the mask itself, a bool), the gradient by ``jax.grad`` of the sum of the
values times the cotangent, the values by calling the quantizer again.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def make_quantizer(scale: float, qmin: int, qmax: int):
    lo, hi = float(qmin), float(qmax)

    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), lo, hi)

    def fwd(x):
        u = x / scale
        return q(x), jnp.logical_and(u >= lo, u <= hi)

    def bwd(inside, g):
        return (jnp.where(inside, g, jnp.zeros_like(g)),)

    q.defvjp(fwd, bwd)
    return q


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    q = make_quantizer(scale, qmin, qmax)
    grads = jax.grad(lambda v: jnp.sum(q(v) * cotangent))(x)
    return {"values": q(x), "grads": grads}
