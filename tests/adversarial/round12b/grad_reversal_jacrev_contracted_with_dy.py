"""grad_reversal: the layer's Jacobian by ``jax.jacrev`` (basis cotangents pulled back through
the rule), then contracted with dy by ``jnp.tensordot`` outside the rule: dy reaches dx only as
a product with the rule's outputs, never through the rule.

Problem: grad_reversal
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    J = jax.jacrev(r)(x)
    return {"y": r(x), "dx": jnp.tensordot(dy, J, axes=dy.ndim)}
