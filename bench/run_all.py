"""Run every benchmark script in bench/ in turn, with this Python, passing no arguments.

usage: python bench/run_all.py
Benchmarks are run by hand (their numbers go to bench/README.md), never as timed tests.
gen_synthetic.py is a data generator used by the benchmarks, not a benchmark itself.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_NOT_BENCHMARKS = {"run_all.py", "gen_synthetic.py"}


def main() -> int:
    """Run each script; report which failed and exit non-zero if any did."""
    here = Path(__file__).parent
    failed = []
    for script in sorted(here.glob("*.py")):
        if script.name in _NOT_BENCHMARKS or script.name.startswith("_"):
            continue
        print(f"== {script.name}", flush=True)
        if subprocess.run([sys.executable, str(script)], check=False).returncode != 0:
            failed.append(script.name)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
