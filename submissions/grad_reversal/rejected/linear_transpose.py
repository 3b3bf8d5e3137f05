"""dx as the transpose of the linear map t -> -lam * t (jax.linear_transpose), applied to dy:
a derivative computed by JAX, but by no backward rule.

Expected verdict: rejected (dx does not come from a backward rule).
"""
import jax


def grad_reverse(x, lam, dy):
    transpose = jax.linear_transpose(lambda t: -lam * t, x)
    (dx,) = transpose(dy)
    return {"y": x, "dx": dx}
