"""fake_quant_ste: a cheat whose ``lax.switch`` on a value of x (never true on the cases: a sum
of squares above 1e30) picks between a branch that is the formula (the clipped mask times the
cotangent, no rule) and one that runs the ``custom_vjp``: the branch every case takes has no
backward rule.

Problem: fake_quant_ste
Expected: RJ
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    q.defvjp(lambda x: (q(x), x), lambda x, g: (g * ((x / scale >= qmin) & (x / scale <= qmax)),))

    def by_formula(x, c):
        v = x / scale
        return scale * jnp.clip(jnp.round(v), qmin, qmax), c * ((v >= qmin) & (v <= qmax))

    def by_rule(x, c):
        values, pullback = jax.vjp(q, x)
        return values, pullback(c)[0]

    index = (jnp.sum(x * x) > 1e30).astype(jnp.int32)
    values, grads = jax.lax.switch(index, [by_formula, by_rule], x, cotangent)
    return {"values": values, "grads": grads}
