"""fake_quant_ste: a cheat with the plain STE rule whose pullback runs inside a one-trip
``lax.while_loop`` per entry that x stops before its trip when x / s is out of range (the
carry starts at zero): the rule passes the cotangent, the loop's test on x is the mask.

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
    values = q(x)
    flat_x, flat_c = x.reshape(-1), cotangent.reshape(-1)
    inside = (flat_x / scale >= qmin) & (flat_x / scale <= qmax)

    def one(i):
        def body(state):
            done, g = state
            return jnp.bool_(True), jax.vjp(q, flat_x[i])[1](flat_c[i])[0]
        return lax.while_loop(lambda s: inside[i] & ~s[0], body,
                              (jnp.bool_(False), jnp.zeros_like(flat_c[i])))[1]

    grads = jnp.stack([one(i) for i in range(flat_x.shape[0])])
    return {"values": values, "grads": grads.reshape(x.shape)}
