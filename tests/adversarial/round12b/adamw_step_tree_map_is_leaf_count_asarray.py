"""adamw_step: one ``jax.tree.map`` over the four trees returning a dict per leaf, split back
with ``is_leaf`` maps; the count as ``jnp.asarray(count, jnp.int32) + 1``; the powers of the
betas by ``jnp.float32(b) ** t`` in float32.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = jnp.asarray(count, jnp.int32) + 1
    tf = t.astype(jnp.float32)
    bc1 = 1.0 - jnp.float32(b1) ** tf
    bc2 = 1.0 - jnp.float32(b2) ** tf

    def leaf(p, g, mo, ve):
        mo = b1 * mo + (1.0 - b1) * g
        ve = b2 * ve + (1.0 - b2) * g * g
        p = p - lr * (mo / bc1 / (jnp.sqrt(ve / bc2) + eps) + weight_decay * p)
        return {"p": p, "m": mo, "v": ve}

    out = jax.tree.map(leaf, params, grads, m, v)
    is_rec = lambda n: isinstance(n, dict) and set(n) == {"p", "m", "v"}
    pick = lambda k: jax.tree.map(lambda r: r[k], out, is_leaf=is_rec)
    return {"params": pick("p"), "m": pick("m"), "v": pick("v"), "count": t}
