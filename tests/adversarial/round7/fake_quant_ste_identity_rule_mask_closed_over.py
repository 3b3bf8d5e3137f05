"""fake_quant_ste: no quantizer in any custom_vjp: an identity function whose backward rule
multiplies the cotangent by a mask it closes over, pulled back with ``jax.vjp``; the rounding
computed beside it. The statement asks for the quantizer wrapped with custom_vjp; the rule asks
only that the cotangent reach ``grads`` through a backward rule, and the whole transformation is
in one.

Problem: fake_quant_ste
Expected: RJ
Cases: all
Open: custom_vjp_grads reads where grads comes from, not whether the custom_vjp function computes
  values
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
