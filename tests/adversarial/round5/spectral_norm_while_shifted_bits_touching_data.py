"""spectral_norm: the squarings in a ``lax.while_loop`` on ``(i < K) & (bits > 0)``, ``bits``
shifted right at each trip and added to ``0 * moved``, a value the trip computes: the bits of
K - 1 stop the loop after about log2(K) trips, and the carry reads the loop's values.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: stopped one trip early, the loop changes the output only at cases where it ran
  fewer trips than its count K (the bits ran out): that is not the values converging, and no
  case shows a trip of K that computes the output
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)

    def body(state):
        i, bits, P, R = state
        R = jnp.where(bits & 1 == 1, R @ P, R)
        P = P @ P
        moved = (jnp.abs(P).sum() * 0).astype(jnp.int32)
        return i + 1, (bits >> 1) + moved, P / jnp.linalg.norm(P), R / jnp.linalg.norm(R)

    start = (0, K - 1, M, jnp.eye(W.shape[1], dtype=W.dtype))
    _, _, _, R = jax.lax.while_loop(lambda s: (s[0] < K) & (s[1] > 0), body, start)
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
