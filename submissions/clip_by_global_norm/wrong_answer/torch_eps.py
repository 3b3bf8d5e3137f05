import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    total = jnp.sqrt(sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads)) + 1e-12)
    coef = jnp.minimum(max_norm / (total + 1e-6), 1.0)   # as torch.nn.utils.clip_grad_norm_
    return jax.tree_util.tree_map(lambda x: x * coef, grads)
