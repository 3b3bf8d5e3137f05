"""fake_quant_ste: a custom_vjp quantizer that saves no residual: its backward rule reads the
window computed from x outside it, a closure rather than a residual; the cotangent still enters
the rule as its cotangent.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    inside = (x / scale >= qmin) & (x / scale <= qmax)

    @jax.custom_vjp
    def q(t):
        return scale * jnp.clip(jnp.round(t / scale), qmin, qmax)

    # no residual: the backward rule reads the window computed from x outside
    q.defvjp(lambda t: (q(t), None), lambda _, g: (jnp.where(inside, g, 0.0),))
    y, pull = jax.vjp(q, x)
    return {"values": y, "grads": pull(cotangent)[0]}
