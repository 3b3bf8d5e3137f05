"""Reference solution for grad_reversal: an identity whose custom_vjp backward rule reverses and
scales the cotangent (the gradient reversal layer of domain-adversarial training)."""

import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def reverse(v):
        return v

    def forward(v):
        return v, None

    def backward(_, g):
        return (-lam * g,)

    reverse.defvjp(forward, backward)
    y, pullback = jax.vjp(reverse, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
