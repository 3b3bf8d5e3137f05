"""Looks through the worker's memory for case inputs while a public example runs, and prints and
raises with what it finds: both are shown in the example's report, so hidden inputs must not be
in the worker yet. Expected: RTE on the examples, with only example indices found."""
import gc


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    seen = sorted(o["index"] for o in gc.get_objects()
                  if isinstance(o, dict) and "args" in o and isinstance(o.get("index"), int))
    print("case inputs in memory:", seen)
    raise ValueError(f"case inputs in memory: {seen}")
