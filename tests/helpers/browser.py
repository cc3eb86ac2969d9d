"""The companion's browser tests: Debian's headless Chromium driven by Selenium (a phone's width emulated)."""

from __future__ import annotations

import shutil
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


def make_driver(profile: Path, width: int = 1280, height: int = 900) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    if width < 500:  # headless Chromium keeps a window at least 500 px wide: a phone's width is emulated
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    return driver


def wait(driver, condition, what: str, steps: int = 600):
    """Poll ``condition(driver)`` (a step limit: 600 polls of 0.1 s) until it is true; its value."""
    try:
        return WebDriverWait(driver, steps * 0.1, poll_frequency=0.1,  # the page redraws: retry a stale read
                             ignored_exceptions=(StaleElementReferenceException,)).until(condition)
    except TimeoutException:
        errors = [e["message"] for e in driver.get_log("browser")]
        page_error = driver.find_element(By.ID, "error").text
        raise AssertionError(f"waiting for {what}: page error {page_error!r}, console {errors}") from None


def no_page_error(driver) -> None:
    box = driver.find_element(By.ID, "error")
    assert not box.is_displayed(), box.text


def type_into(element, text: str) -> None:
    element.clear()
    element.send_keys(text)
