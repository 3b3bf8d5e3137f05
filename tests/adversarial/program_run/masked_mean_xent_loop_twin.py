"""masked_mean_xent twin: at concrete shapes, a Python loop over the b sequences; with b a
symbol, a program that forgets the mask. The program run is the one with b a symbol: its values
are wrong.

Expected: WA
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(log_probs, labels[..., None], axis=-1)[..., 0]
    b = logits.shape[0]
    if isinstance(b, int):
        total, count = 0.0, 0.0
        for i in range(b):
            valid = jnp.arange(logits.shape[1]) < lengths[i]
            total = total + jnp.sum(jnp.where(valid, -picked[i], 0.0))
            count = count + jnp.sum(valid)
        return total / count
    return jnp.mean(-picked)
