#!/usr/bin/env python3
"""The phone app's benchmark in headless Chromium; run it through Tools/app-bench (which makes
the virtual environment and says what is measured, how, and the exit codes). The bench itself is
the package Tools/lib/app_bench."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from app_bench.cli import main  # noqa: E402

if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
