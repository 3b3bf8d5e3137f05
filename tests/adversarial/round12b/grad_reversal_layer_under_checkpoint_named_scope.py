"""grad_reversal: the layer applied inside ``jax.named_scope("grl")`` in a function wrapped by
``jax.checkpoint``, the pullback of that function.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    @jax.checkpoint
    def layer(v):
        with jax.named_scope("grl"):
            return r(v)

    y, back = jax.vjp(layer, x)
    return {"y": y, "dx": back(dy)[0]}
