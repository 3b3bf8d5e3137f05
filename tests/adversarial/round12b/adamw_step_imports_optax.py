"""adamw_step: ``optax.adamw``'s update applied to the trees; the statement says optimizer
libraries cannot be imported.

Problem: adamw_step
Expected: RJ
Cases: all
"""
import optax


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    opt = optax.adamw(lr, b1=b1, b2=b2, eps=eps, weight_decay=weight_decay)
    state = opt.init(params)
    updates, _ = opt.update(grads, state, params)
    return {"params": optax.apply_updates(params, updates), "m": m, "v": v, "count": count + 1}
