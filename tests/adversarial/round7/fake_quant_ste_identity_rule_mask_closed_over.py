"""fake_quant_ste: no quantizer in any custom_vjp: an identity function whose backward rule
multiplies the cotangent by a mask it closes over, pulled back with ``jax.vjp``; the rounding
computed beside it. The statement asks for the quantizer wrapped with custom_vjp: the values must
be what the function whose backward rule gives ``grads`` computed from its input, and this one
computes nothing (its output is its input).

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    # a custom_vjp on the identity, the mask in its backward rule; the rounding outside any rule
    r = x / scale
    m = ((r >= qmin) & (r <= qmax)).astype(jnp.float32)

    @jax.custom_vjp
    def gate(t):
        return t

    gate.defvjp(lambda t: (t, None), lambda _, g: (g * m,))
    _, pull = jax.vjp(gate, x)
    return {"values": scale * jnp.clip(jnp.round(r), qmin, qmax), "grads": pull(cotangent)[0]}
