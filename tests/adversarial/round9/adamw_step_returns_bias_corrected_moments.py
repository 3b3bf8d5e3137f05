"""adamw_step: a plausible wrong answer: the student stores the bias-corrected moments
(m_hat, v_hat) as the new state instead of m' and v'; the parameters come out right, m and v
do not (except where 1 - b^t is 1, b = 0).

Problem: adamw_step
Expected: WA
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    c1 = 1 - b1 ** t.astype(jnp.float32)
    c2 = 1 - b2 ** t.astype(jnp.float32)
    m_hat = jax.tree.map(lambda mu, g: (b1 * mu + (1 - b1) * g) / c1, m, grads)
    v_hat = jax.tree.map(lambda nu, g: (b2 * nu + (1 - b2) * g * g) / c2, v, grads)
    new = jax.tree.map(lambda p, mh, vh: p - lr * (mh / (jnp.sqrt(vh) + eps) + weight_decay * p),
                       params, m_hat, v_hat)
    return {"params": new, "m": m_hat, "v": v_hat, "count": t}
