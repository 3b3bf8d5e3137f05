"""grad_reversal: the rule only negates (g -> -g) and lam multiplies what the pullback returns,
``lam * pull(dy)``: the sign inside the rule, lam outside it, which the statement refuses (the
whole transformation belongs in the rule).

Problem: grad_reversal
Expected: RJ grads_not_from_backward
Cases: all
"""
import jax


@jax.custom_vjp
def flip(x):
    return x


flip.defvjp(lambda x: (x, None), lambda _, g: (-g,))


def grad_reverse(x, lam, dy):
    y, pull = jax.vjp(flip, x)
    return {"y": y, "dx": lam * pull(dy)[0]}
