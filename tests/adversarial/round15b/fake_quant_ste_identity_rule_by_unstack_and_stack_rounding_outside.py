"""fake_quant_ste: a cheat: the custom_vjp function's forward only takes its input apart with
``jnp.unstack`` and puts it back with ``jnp.stack`` (an identity, written as a computation), its
backward rule applies the honest mask, and the rounding is done outside it, on its output.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def gate(v):
        return jnp.stack(jnp.unstack(v))

    def fwd(v):
        return gate(v), v / scale

    def bwd(r, g):
        return (g * ((r >= qmin) & (r <= qmax)),)

    gate.defvjp(fwd, bwd)
    out, pb = jax.vjp(gate, x)
    values = scale * jnp.clip(jnp.round(out / scale), qmin, qmax)
    return {"values": values, "grads": pb(cotangent)[0]}
