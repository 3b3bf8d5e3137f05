"""fake_quant_ste: a ``custom_vjp`` whose forward multiplies its input by one plus an ulp and
whose backward passes the cotangent through, the clipped mask applied to the cotangent before
the pullback (the mask a function of x, outside the rule), and the values computed beside it
by a formula. The rule's gradient must be the clipped estimator's, and the values what the rule
computed.

Problem: fake_quant_ste
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def passthrough(x):
    return x * jnp.float32(1.0000001)


passthrough.defvjp(lambda x: (passthrough(x), None), lambda _, g: (g,))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    u = x / scale
    mask = ((u >= qmin) & (u <= qmax)).astype(jnp.float32)
    _, vjp = jax.vjp(passthrough, x)
    grads = vjp(cotangent * mask)[0]
    values = scale * jnp.clip(jnp.round(u), qmin, qmax)
    return {"values": values, "grads": grads}
