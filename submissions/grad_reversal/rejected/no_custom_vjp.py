"""No custom_vjp at all: both outputs are written down directly.

Expected verdict: rejected.
"""


def grad_reverse(x, lam, dy):
    return {"y": x, "dx": -lam * dy}
