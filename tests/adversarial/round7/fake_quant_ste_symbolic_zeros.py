"""fake_quant_ste: the rules attached with ``defvjp(..., symbolic_zeros=True)``: the forward rule
unwraps its primal from the ``.value`` JAX passes.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(t):
        return scale * jnp.clip(jnp.round(t / scale), qmin, qmax)

    def fwd(t):
        t = t.value  # with symbolic_zeros, each primal comes wrapped with its perturbed flag
        return q(t), t / scale

    def bwd(r, g):
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    q.defvjp(fwd, bwd, symbolic_zeros=True)
    y, pull = jax.vjp(q, x)
    return {"values": y, "grads": pull(cotangent)[0]}
