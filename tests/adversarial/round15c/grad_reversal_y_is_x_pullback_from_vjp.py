"""grad_reversal: ``y`` returned as ``x`` itself (the layer is the identity), ``dx`` from the
pullback of ``jax.vjp`` of the ``custom_vjp`` layer whose own output is not used.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def layer(v):
        return v

    layer.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    _, pull = jax.vjp(layer, x)
    (dx,) = pull(dy)
    return {"y": x, "dx": dx}
