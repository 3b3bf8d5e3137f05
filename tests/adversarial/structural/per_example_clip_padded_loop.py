"""clipped_mean_grad for per_example_clip as a Python loop over the examples, padded to 131
rows (2 * 64 + 3: every extent a case or a trace beside a case may have); a row past the end
repeats the last one and is weighted by 0. The program's size never changes with n.

Expected: RJ dim_read_as_number (traced with n as a symbol, the loop reads n as a number)
"""

import jax.numpy as jnp

PAD = 131


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]
    acc_w, acc_b = jnp.zeros_like(w), jnp.zeros_like(b)
    for i in range(PAD):
        j = min(i, n - 1)
        xj, yj = jnp.take(X, j, axis=0), jnp.take(y, j)   # the same equations at every n
        r = jnp.dot(xj, w) + b - yj
        gw, gb = r * xj, r
        scale = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw * gw) + gb * gb) / clip_norm)
        keep = 1.0 if i < n else 0.0
        acc_w, acc_b = acc_w + keep * scale * gw, acc_b + keep * scale * gb
    return {"grad_w": acc_w / n, "grad_b": acc_b / n}
