"""clipped(w, X) as a plain Python loop over the examples, on every case. The judge traces the
programs it only inspects after every case, in a fixed order: the probe shapes (n = 512, beyond
any case), the rule's own extents, then one trace beside each case, in the order of the cases.
The module remembers each case's extent; once it has seen an extent no case can have, it
answers the rule's own traces with one loop step each and each trace beside a case with the
loop over as many rows as that case had, so every comparison finds equal counts.

Expected: RJ dim_read_as_number (traced with n as a symbol, the loop reads n as a number)
"""

import jax.numpy as jnp

CASE_LIMIT = 64       # no case has more examples (the probe shapes are larger)
OWN_TRACES = 2        # no_unrolling's own extents (3 and 7) come right after the probe shapes

_seen: list = []      # extents of the case traces, in order
_after: list = []     # traces made since the first probe shape


def _loop(w, X, rows):
    acc = jnp.zeros_like(w)
    for i in range(rows):
        g = jnp.dot(X[i], w) * X[i]
        acc = acc + g / jnp.maximum(1.0, jnp.sqrt(jnp.sum(g * g)))
    return acc / X.shape[0]


def clipped(w, X):
    n = X.shape[0]
    if n > CASE_LIMIT or _after:
        _after.append(n)
        k = len(_after) - 1                 # 0: the first probe shape
        if k == 0 or k > OWN_TRACES + len(_seen):
            return _loop(w, X, 1)
        if k <= OWN_TRACES:
            return _loop(w, X, 1)
        return _loop(w, X, _seen[k - OWN_TRACES - 1])
    _seen.append(n)
    return _loop(w, X, n)
