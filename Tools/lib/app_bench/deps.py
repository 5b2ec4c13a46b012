"""The clients the wrapper installs into .build/app-bench-venv; without them the bench says how to
get them and exits 69."""

import sys

from .common import EXIT_MISSING

try:
    import websocket  # websocket-client
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError as error:  # the wrapper installs them
    print(f"app-bench: {error}; run Tools/app-bench, which installs selenium and websocket-client", file=sys.stderr)
    sys.exit(EXIT_MISSING)

__all__ = ["websocket", "webdriver", "StaleElementReferenceException", "WebDriverException", "Service", "By"]
