"""grad_reversal: a cheat: ``y`` from the layer applied to ``x``, and ``dx`` from a second
``jax.vjp`` of the layer at ``jnp.where(False, x, 0.0)``, zeros on every input (the identity's
pullback is the same at any point, but the layer pulled back is not applied to x).

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y = r(x)
    _, pb = jax.vjp(r, jax.numpy.where(False, x, 0.0))
    return {"y": y, "dx": pb(dy)[0]}
