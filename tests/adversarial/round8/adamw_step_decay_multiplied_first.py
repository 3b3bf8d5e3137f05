"""adamw_step: PyTorch's order of operations: params multiplied by (1 - lr * weight_decay) in
place first, then the Adam step subtracted: the same numbers as the statement's formula (the
decay uses the old params either way), written as two updates in a Python loop over the
flattened leaves with paths.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    step = count + 1
    bc1 = 1.0 - jnp.float32(b1) ** step.astype(jnp.float32)
    bc2 = 1.0 - jnp.float32(b2) ** step.astype(jnp.float32)
    paths, treedef = jax.tree_util.tree_flatten_with_path(params)
    flat_g = jax.tree_util.tree_leaves(grads)
    flat_m = jax.tree_util.tree_leaves(m)
    flat_v = jax.tree_util.tree_leaves(v)
    new_p, new_m, new_v = [], [], []
    for (path, p), g, mu, nu in zip(paths, flat_g, flat_m, flat_v):
        p = p * (1.0 - lr * weight_decay)
        mu = mu * b1 + g * (1.0 - b1)
        nu = nu * b2 + g * g * (1.0 - b2)
        denom = jnp.sqrt(nu) / jnp.sqrt(bc2) + eps
        p = p - (lr / bc1) * mu / denom
        new_p.append(p)
        new_m.append(mu)
        new_v.append(nu)
    build = lambda leaves: jax.tree_util.tree_unflatten(treedef, leaves)
    return {"params": build(new_p), "m": build(new_m), "v": build(new_v), "count": step}
