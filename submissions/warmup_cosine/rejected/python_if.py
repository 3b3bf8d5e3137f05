"""A Python if on the traced step: Python needs the truth of `step < warmup_steps`, which the
traced step does not have.

Expected verdict: rejected (a traced value turned into a Python bool).
"""
import math


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return base_lr * step / warmup_steps
    if step > total_steps:
        return 0.0 * step
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return 0.5 * base_lr * (1.0 + math.cos(math.pi * progress))
