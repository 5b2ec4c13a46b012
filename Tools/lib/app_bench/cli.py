"""The command line: the options Tools/app-bench passes on, the run in a temporary directory, and
one sentence and exit 70 when the run fails."""

import argparse
import shutil
import sys
import tempfile

from .common import EXIT_FAILED, EXIT_USAGE, log
from .server import Server
from .session import run


def main():
    parser = argparse.ArgumentParser(prog="Tools/app-bench", add_help=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", action="store_true")
    parser.add_argument("--screenshot-dir", default="docs")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--reloads", type=int, default=5)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--replica-events", dest="replica_events", type=int, default=0)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", dest="json_out")
    parser.add_argument("--cpu-profile", dest="cpu_profile")
    parser.add_argument("--app-dir", dest="app_dir")
    parser.error = lambda message: (print(f"Tools/app-bench: {message}", file=sys.stderr), sys.exit(EXIT_USAGE))
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="app-bench-")
    server = Server(args.binary, work)
    try:
        return run(args, work, server)
    except Exception as error:  # BenchError, WebDriver, a subprocess: one sentence, exit 70
        log(f"error: {type(error).__name__}: {error}")
        if hasattr(server, "stderr_path"):
            log(f"the server's log is {server.stderr_path} (kept with --keep)")
        return EXIT_FAILED
    finally:
        server.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            log(f"kept {work}")
