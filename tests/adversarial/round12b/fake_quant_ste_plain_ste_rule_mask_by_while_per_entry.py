"""fake_quant_ste: the plain STE rule (its backward passes the cotangent), and each entry of
the gradient zeroed after it by a ``lax.while_loop`` that runs one trip (zeroing its carry) only
where x / s is out of range: the mask chosen by a loop condition on x instead of a ``cond``.

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
    g = back(cotangent)[0].ravel()
    u = (x / scale).ravel()
    entries = []
    for i in range(g.shape[0]):
        outside = (u[i] < qmin) | (u[i] > qmax)
        e, _ = lax.while_loop(lambda s, o=outside: o & (s[1] == 0),
                              lambda s: (jnp.zeros_like(s[0]), s[1] + 1), (g[i], jnp.int32(0)))
        entries.append(e)
    return {"values": values, "grads": jnp.stack(entries).reshape(x.shape)}
