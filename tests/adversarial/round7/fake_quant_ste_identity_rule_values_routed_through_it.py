"""fake_quant_ste: an identity custom_vjp whose backward rule multiplies the cotangent by a mask it
closes over, and the values, rounded outside it, passed through it too: the values come out of
the function, but it computed nothing from its input (its output is its input).

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
        return t * 1.0 + 0.0

    gate.defvjp(lambda t: (gate(t), None), lambda _, g: (g * m,))
    _, pull = jax.vjp(gate, x)
    return {"values": gate(scale * jnp.clip(jnp.round(r), qmin, qmax)), "grads": pull(cotangent)[0]}
