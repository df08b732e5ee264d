"""Headless Chromium for the page's tests: Debian's ``chromium`` with its version-matched
``chromium-driver``, through Selenium, never a downloaded browser or driver.

Without them a test skips with a message; ``MNEMEX_REQUIRE_BROWSER=1`` (set by ``.ci/run``)
turns that skip into a failure.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _chromium() -> str:
    return os.environ.get("MNEMEX_CHROMIUM", "/usr/bin/chromium")


def _driver() -> str:
    return os.environ.get("MNEMEX_CHROMEDRIVER", "/usr/bin/chromedriver")


#: Chromium's own calls home are refused by a closed network, many at a time: turned off.
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--window-size=1280,900",
)


def need_browser() -> None:
    """Skip (or, with MNEMEX_REQUIRE_BROWSER=1, fail) without Chromium and its driver."""
    missing = [p for p in (_chromium(), _driver()) if not Path(p).is_file()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package")
    if not missing:
        return
    message = (
        f"no browser to test the page in ({', '.join(missing)} missing): install Debian's "
        "chromium and chromium-driver (CI does, in .ci/run)"
    )
    if os.environ.get("MNEMEX_REQUIRE_BROWSER") == "1":
        pytest.fail(message + "; MNEMEX_REQUIRE_BROWSER=1 makes this a failure")
    pytest.skip(message)


@contextmanager
def chromium() -> Iterator[object]:
    """A Selenium driver of headless Chromium with a fresh profile."""
    need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="mnemex-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = _chromium()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    # the console's messages, CSP violations among them, for driver.get_log("browser")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=_driver()))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot_dir(tmp_path: Path) -> Path:
    """Where screenshots go: $MNEMEX_SCREENSHOTS, else the test's temporary folder."""
    folder = Path(os.environ.get("MNEMEX_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
