"""warmup_cosine: the phases chosen by a Python ``if`` on ``int(step)``, which a traced step has
no value for.

Problem: warmup_cosine
Expected: RJ
Cases: all
"""
import math


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = int(step)
    if s < warmup_steps:
        return base_lr * s / warmup_steps
    if s <= total_steps:
        return base_lr * 0.5 * (1 + math.cos(math.pi * (s - warmup_steps) / (total_steps - warmup_steps)))
    return 0.0
