"""Attack: the bias corrections as the solution of a 1 x 1 linear system whose solve function
asks the host (pure_callback), so the callback sits in a jaxpr held by
custom_linear_solve's parameters rather than in the program's own equations."""
import jax
import jax.numpy as jnp
import numpy as np


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = (count + 1).astype(jnp.float32)

    def host_solve(rhs):
        return np.asarray(rhs, np.float32)

    def solve(matvec, rhs):
        return jax.pure_callback(host_solve, jax.ShapeDtypeStruct(rhs.shape, rhs.dtype), rhs)

    rhs = jnp.stack([1 - b1 ** t, 1 - b2 ** t])
    bc = jax.lax.custom_linear_solve(lambda x: x, rhs, solve)
    bc1, bc2 = bc[0], bc[1]
    m = jax.tree_util.tree_map(lambda m_, g: b1 * m_ + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, v, grads)
    params = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * ((a / bc1) / (jnp.sqrt(b / bc2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": count + 1}
