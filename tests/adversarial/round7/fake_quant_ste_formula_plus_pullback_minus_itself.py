"""fake_quant_ste: the formula ``cotangent * mask``, plus the honest pullback minus itself: the
rule's output is in the expression, the cotangent reaches the gradient around it.

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
    through = pull(cotangent)[0]
    r = x / scale
    formula = cotangent * ((r >= qmin) & (r <= qmax))
    # through - through is 0, so this is the formula, with the vjp in the expression
    return {"values": y, "grads": formula + (through - through)}
