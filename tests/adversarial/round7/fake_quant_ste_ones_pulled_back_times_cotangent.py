"""fake_quant_ste: a real quantizer rule, but pulled back from ones (the mask) and then multiplied
by the cotangent outside it: the same numbers, the cotangent never enters the rule.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(t):
        return scale * jnp.clip(jnp.round(t / scale), qmin, qmax)

    def bwd(t, g):
        r = t / scale
        return (g * ((r >= qmin) & (r <= qmax)),)

    q.defvjp(lambda t: (q(t), t), bwd)
    y, pull = jax.vjp(q, x)
    mu = pull(jnp.ones_like(x))[0]  # the mask, pulled back from ones
    return {"values": y, "grads": mu * cotangent}
