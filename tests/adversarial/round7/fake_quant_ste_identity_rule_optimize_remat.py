"""fake_quant_ste: an identity custom_vjp defined with ``optimize_remat=True`` (its forward rule
becomes a primitive of its own), its backward rule multiplying by a mask it closes over, and the
rounding outside it.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    r = x / scale
    m = ((r >= qmin) & (r <= qmax)).astype(jnp.float32)

    @jax.custom_vjp
    def gate(t):
        return t

    gate.defvjp(lambda t: (jnp.reshape(t, t.shape), None), lambda _, g: (g * m,), optimize_remat=True)
    values, pull = jax.vjp(gate, x)
    return {"values": scale * jnp.clip(jnp.round(values / scale), qmin, qmax), "grads": pull(cotangent)[0]}
