"""The page in a real browser: the real ``mnemex ui --write`` in a subprocess, headless
Chromium clicking through search → page → backlink → graph → health fix → undo → facts,
with hostile notes that would set ``window.__pwned`` or open a dialog if anything ran."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_support import chromium, need_browser, screenshot_dir
from web_support import add_ui_facts, make_ui_vault, running_ui

from health_support import BABBAGE, NOTES, git

WAIT = 60  # seconds: a loaded CI machine is slow; nothing here asserts a time

HOSTILE_PAGE = "notes/hostile <odd> name.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    need_browser()
    root = make_ui_vault(tmp_path / "vault")
    add_ui_facts(root)
    return root


def _ready(driver: Any, view: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return document.body.dataset.ready") == view
    )


def _until(driver: Any, condition: str | Callable[[], bool]) -> Any:
    """Wait for a script to return something true, or for ``condition()``."""
    from selenium.webdriver.support.ui import WebDriverWait

    if callable(condition):
        return WebDriverWait(driver, WAIT).until(lambda _d: condition())
    return WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(condition))


def _clean(driver: Any) -> None:
    """Nothing a note holds ran: no flag set, no dialog open."""
    from selenium.common.exceptions import NoAlertPresentException

    assert driver.execute_script("return window.__pwned === undefined")
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018


def _go(driver: Any, hash_: str, view: str) -> None:
    driver.execute_script("location.hash = arguments[0]", hash_)
    _ready(driver, view)


def test_click_through_every_view_and_nothing_hostile_runs(root: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    shots = screenshot_dir(tmp_path)
    babbage = (root / BABBAGE).read_bytes()
    with running_ui(root, "--write") as link, chromium() as driver:
        driver.get(link)
        _ready(driver, "search")
        assert "token" not in driver.current_url  # traded for the cookie
        cookie = driver.get_cookie("mnemex_ui")
        assert cookie and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert driver.execute_script("return document.cookie") == ""

        # search, with the keyboard: type, Enter, arrow down, Enter opens the hit
        box = driver.find_element(By.CSS_SELECTOR, "form.search input[name=q]")
        box.send_keys("general mechanical computer", Keys.ENTER)
        _until(driver, "return document.querySelectorAll('li.hit').length > 0")
        _ready(driver, "search")
        assert "why:" in driver.find_element(By.CSS_SELECTOR, "li.hit .why").text
        driver.save_screenshot(str(shots / "search.png"))
        first = driver.find_element(By.CSS_SELECTOR, "li.hit").get_attribute("data-path")
        driver.find_element(By.TAG_NAME, "body").click()
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        _ready(driver, "page")
        assert driver.find_element(By.CSS_SELECTOR, "article.page h1").text
        assert driver.execute_script("return decodeURIComponent(location.hash)").endswith(first)

        # a page: rendered, its backlinks beside it; follow one
        _go(driver, "#/page/wiki/general/entities/ada-lovelace.md", "page")
        assert driver.find_element(By.CSS_SELECTOR, "article.page h1").text == "Ada Lovelace"
        table = driver.find_element(By.CSS_SELECTOR, "table.frontmatter").text
        assert "Ada Lovelace" in table
        driver.save_screenshot(str(shots / "page.png"))
        backlink = driver.find_element(By.CSS_SELECTOR, f"aside .page-link[title='{NOTES}']")
        backlink.click()
        _ready(driver, "page")
        assert driver.find_element(By.CSS_SELECTOR, "article.page h1").text == (
            "Notes on the Engine"
        )

        # the graph around it: settles, and a click on a node opens its page
        driver.find_element(By.LINK_TEXT, "Graph around it").click()
        _ready(driver, "graph")
        _until(driver, "return window.mnemexGraphView && window.mnemexGraphView.stats().settled")
        where = driver.execute_script("return window.mnemexGraphView.locate(arguments[0])", BABBAGE)
        assert where is not None
        canvas = driver.find_element(By.CSS_SELECTOR, "#graph canvas")
        driver.save_screenshot(str(shots / "graph.png"))
        from selenium.webdriver.common.action_chains import ActionChains

        size = canvas.size
        ActionChains(driver).move_to_element_with_offset(
            canvas, int(where["x"] - size["width"] / 2), int(where["y"] - size["height"] / 2)
        ).click().perform()
        _ready(driver, "page")
        assert driver.find_element(By.CSS_SELECTOR, "article.page h1").text == "Charles Babbage"

        # the whole-brain graph
        _go(driver, "#/graph", "graph")
        _until(driver, "return window.mnemexGraphView && window.mnemexGraphView.stats().settled")

        # health: fix a broken link (plan first, then apply), then undo it
        _go(driver, "#/health", "health")
        driver.save_screenshot(str(shots / "health.png"))
        issue = driver.find_element(
            By.XPATH, "//li[contains(@class,'issue')][.//p[contains(., 'Lady Lovelace')]]"
        )
        issue.find_element(By.CSS_SELECTOR, "button.fix").click()
        _until(driver, "return document.querySelector('.plan pre.diff') !== null")
        assert (root / BABBAGE).read_bytes() == babbage  # the plan wrote nothing
        driver.find_element(By.XPATH, "//button[text()='Apply']").click()
        _until(driver, "return document.querySelector('.toast.show') !== null")
        _until(driver, lambda: (root / BABBAGE).read_bytes() != babbage)
        _ready(driver, "health")
        driver.find_element(By.ID, "undo").click()
        _until(driver, "return document.querySelector('.undo-box .plan') !== null")
        driver.find_element(By.XPATH, "//div[@class='undo-box']//button[text()='Apply']").click()
        _until(driver, lambda: (root / BABBAGE).read_bytes() == babbage)
        assert git(root, "log", "-1", "--format=%s").startswith("mnemex undo")

        # dismiss an issue with a reason; record the score twice and it is drawn over time
        _ready(driver, "health")
        issue = driver.find_element(
            By.XPATH, "//li[contains(@class,'issue')][.//p[contains(., 'no-such-page')]]"
        )
        issue_id = issue.get_attribute("data-id")
        issue.find_element(By.CSS_SELECTOR, "input").send_keys("a placeholder, on purpose")
        issue.find_element(By.CSS_SELECTOR, "button.dismiss").click()
        _until(
            driver,
            "return document.body.dataset.ready === 'health' && "
            f"!document.querySelector('li.issue[data-id=\"{issue_id}\"]')",
        )
        for scans in (1, 2):
            driver.find_element(By.XPATH, '//button[text()="Record today\'s score"]').click()
            marker = "p.one-score" if scans == 1 else "svg.chart polyline"
            _until(
                driver,
                f"return document.body.dataset.ready === 'health' && "
                f"document.querySelector('{marker}') !== null",
            )
        driver.save_screenshot(str(shots / "health-chart.png"))

        # facts: a subject's timeline; the person confirms one
        _go(driver, "#/facts/orbit", "facts")
        facts = {
            f.get_attribute("data-id"): f.text
            for f in driver.find_elements(By.CSS_SELECTOR, "li.fact")
        }
        texts = "\n".join(facts.values())
        assert "Orbit uses PostgreSQL." in texts
        assert any("hosting is Fly.io." in t and "disputed" in t for t in facts.values())
        assert any("queue is RabbitMQ." in t and "stale: still true?" in t for t in facts.values())
        driver.save_screenshot(str(shots / "facts.png"))
        driver.find_element(
            By.XPATH,
            "//li[contains(@class,'fact')][contains(., 'PostgreSQL')]//button[text()='Confirm']",
        ).click()
        _until(driver, "return document.querySelector('.toast.show') !== null")

        # memories, state
        _go(driver, "#/memories", "memories")
        assert "Cut over to green" in driver.find_element(By.TAG_NAME, "main").text
        driver.save_screenshot(str(shots / "memories.png"))
        driver.find_element(By.LINK_TEXT, "Cut over to green").click()
        _ready(driver, "memory")
        assert "Flip writes on Tuesday." in driver.find_element(By.CSS_SELECTOR, ".markdown").text
        _go(driver, "#/state/orbit", "state")
        assert "Cutover half done" in driver.find_element(By.TAG_NAME, "main").text
        driver.save_screenshot(str(shots / "state.png"))

        # the hostile note: shown as text, nothing ran
        _go(driver, "#/page/" + HOSTILE_PAGE.replace(" ", "%20"), "page")
        text = driver.find_element(By.CSS_SELECTOR, ".markdown").text
        assert "<script>window.__pwned = 1</script>" in text
        for anchor in driver.find_elements(By.CSS_SELECTOR, ".markdown a"):
            href = (anchor.get_attribute("href") or "").lower()
            assert not href.startswith(("javascript:", "data:", "vbscript:")), href
        assert driver.find_elements(By.PARTIAL_LINK_TEXT, "click me") == []  # text, not a link
        for cell in driver.find_elements(By.CSS_SELECTOR, ".markdown td, .markdown p, .markdown a"):
            ActionChains(driver).move_to_element(cell).perform()  # hover each
        driver.save_screenshot(str(shots / "hostile.png"))
        severe = [
            e
            for e in driver.get_log("browser")
            if e.get("level") == "SEVERE" and "favicon" not in e.get("message", "")
        ]
        assert severe == [], severe  # a CSP violation or a script error shows up here
