"""The README's smallest problem package passes `judge check` exactly as written there."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"<!-- package file: (\S+) -->\n```\w*\n(.*?)```", re.S)


def test_the_readme_package_passes_judge_check(tmp_path):
    files = BLOCK.findall((ROOT / "README.md").read_text())
    assert {path for path, _ in files} >= {"problems/double.yaml", "reference/double.py"}
    assert any("/accepted/" in path for path, _ in files)
    assert any("/wrong_answer/" in path for path, _ in files)
    for rel, text in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    r = subprocess.run([sys.executable, "-m", "judge", "check", "double"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=600,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "double: 0 errors" in r.stdout
