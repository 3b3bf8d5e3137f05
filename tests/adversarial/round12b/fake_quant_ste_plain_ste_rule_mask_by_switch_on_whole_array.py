"""fake_quant_ste: the plain STE rule, then one ``lax.switch`` whose index is whether every
entry of x / s is in range: branch 1 gives the pulled-back cotangent as it is, branch 0 the
cotangent times the mask. Right wherever the switch picks branch 1; a mask outside the rule.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), None), lambda _, g: (g,))
    values, back = jax.vjp(q, x)
    g = back(cotangent)[0]
    u = x / scale
    inside = (u >= qmin) & (u <= qmax)
    index = jnp.all(inside).astype(jnp.int32)
    grads = lax.switch(index, [lambda t: t * inside, lambda t: t], g)
    return {"values": values, "grads": grads}
