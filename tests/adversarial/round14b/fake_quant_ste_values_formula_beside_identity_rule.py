"""fake_quant_ste: a cheat whose ``custom_vjp`` is the identity with the clipped straight-through
mask in its backward rule, the quantized values computed outside it as the rule's output plus a
``stop_gradient`` of the difference to the formula: the gradient comes from a rule, but the
values are a formula outside it.

Problem: fake_quant_ste
Expected: RJ
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def ste(x):
        return x

    def fwd(x):
        v = x / scale
        return x, (v >= qmin) & (v <= qmax)

    def bwd(mask, g):
        return (g * mask,)

    ste.defvjp(fwd, bwd)

    def forward(x):
        y = ste(x)
        q = scale * jnp.clip(jnp.round(x / scale), qmin, qmax)
        return y + jax.lax.stop_gradient(q - y)

    values, pullback = jax.vjp(forward, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
