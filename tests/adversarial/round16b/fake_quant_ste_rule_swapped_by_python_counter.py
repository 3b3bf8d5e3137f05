"""fake_quant_ste: a cheat that counts its calls in a module-level Python counter: the first
trace differentiates through the custom_vjp quantizer, every later one (another static
signature: another scale or shape) writes the gradient as a formula, the cotangent times the
mask. The judge traces once per signature, so the formula is graded on most cases.

Problem: fake_quant_ste
Expected: RJ backward_not_run
Cases: all
"""
import jax
import jax.numpy as jnp

CALLS = [0]


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    CALLS[0] += 1

    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), v / scale),
             lambda r, g: (g * ((r >= qmin) & (r <= qmax)),))
    if CALLS[0] == 1:
        values, pb = jax.vjp(q, x)
        return {"values": values, "grads": pb(cotangent)[0]}
    r = x / scale
    return {"values": q(x), "grads": cotangent * ((r >= qmin) & (r <= qmax))}
