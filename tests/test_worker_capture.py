"""The worker's output capture (``judge.worker.main.Capture``): one pair of files for the whole
run, each block starting from empty, descriptors 1 and 2 given back after each block."""

import json
import os
import subprocess
import sys

from tests.helpers import ROOT, pythonpath

CAPTURED = r"""
import json, os, sys
sys.path.insert(0, {root!r})
from judge.worker.main import Capture
cap = Capture(8)
seen = []
with cap:
    print("first block, longer than the limit")
    os.write(2, b"err-1")
seen.append([cap.stdout, cap.stderr])
with cap:
    os.write(1, b"two")
seen.append([cap.stdout, cap.stderr])
with cap:
    os.lseek(1, 1 << 20, os.SEEK_SET)  # a submission moves the offset: the next block starts at 0
    os.write(1, b"x")
with cap:
    os.write(1, b"four")
seen.append([cap.stdout, cap.stderr])
with cap:
    pass
seen.append([cap.stdout, cap.stderr])
print(json.dumps(seen))
"""


def test_each_block_sees_only_its_own_output_and_the_descriptors_come_back():
    done = subprocess.run([sys.executable, "-c", CAPTURED.format(root=str(ROOT))],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu",
                               "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == 1  # nothing captured leaked to the real stdout; the last print did not stay captured
    first, second, fourth, empty = json.loads(lines[0])
    assert first[0].startswith("first bl") and "more bytes not kept" in first[0]
    assert first[1] == "err-1"
    assert second == ["two", ""]
    assert fourth == ["four", ""]
    assert empty == ["", ""]
