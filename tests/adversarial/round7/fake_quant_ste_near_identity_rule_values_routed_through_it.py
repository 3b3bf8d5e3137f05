"""fake_quant_ste: a custom_vjp whose forward multiplies its input by one plus an ulp (a change the
tolerance absorbs), whose backward rule multiplies the cotangent by a mask it closes over, and
the values, rounded outside it, passed through it.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Open: the rule asks that the values be what the function computed from its input, and any
  computation counts, however little it changes them; telling a quantizer from it would take the
  function's values, which the dataflow does not read, and a bound on how far the function must
  move its input would tie the verdict to the case's values (a quantizer with a fine scale is a
  near identity too)
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    r = x / scale
    m = ((r >= qmin) & (r <= qmax)).astype(jnp.float32)

    @jax.custom_vjp
    def gate(t):
        return t * (1 + 2.0 ** -23)

    gate.defvjp(lambda t: (gate(t), None), lambda _, g: (g * m,))
    _, pull = jax.vjp(gate, x)
    return {"values": gate(scale * jnp.clip(jnp.round(r), qmin, qmax)), "grads": pull(cotangent)[0]}
