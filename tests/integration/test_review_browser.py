"""`remora serve` driven as a person would, in a real headless Chromium.

analyze (scripted model, real loop) leaves two changes; the person opens the
queue, moves to a change with the keyboard, accepts two of its three hunks,
rejects the other change with a reason, and retries it with the runs page's
button; the project's files and the results database are then checked byte for
byte. A request without the token is refused. The runs page follows a running
analyze without reloading.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest
from review_browser_support import (
    SHOP_HUNKS_1_AND_3,
    TAX,
    chromium,
    make_project,
    remora,
    remora_background,
    script_retry,
    serve,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from remora.results import ResultsDB

pytestmark = pytest.mark.integration
REASON = "tax must stay a literal 0.2 until the finance review"


def wait_for_path(driver: WebDriver, path: str) -> None:
    WebDriverWait(driver, 20).until(lambda d: d.current_url.split("?")[0].endswith(path))


def status_without_token(url: str) -> int:
    bare = url.split("?")[0]
    try:
        with urllib.request.urlopen(bare, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_review_in_the_browser_accepts_two_of_three_hunks_and_rejects_with_a_reason(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path / "shop")
    run = remora(root, "analyze", "pkg", "-o", "edit")
    assert run.returncode == 0, run.stderr
    with serve(root) as url, chromium() as driver:
        assert status_without_token(url) == 403
        driver.get(url.split("?")[0])
        assert "This page needs the token" in driver.page_source

        driver.get(url)  # the printed URL: the token becomes a cookie and leaves the URL
        wait_for_path(driver, "/")
        assert "token=" not in driver.current_url
        rows = driver.find_elements(By.CSS_SELECTOR, "#queue tbody tr")
        assert [r.find_element(By.CSS_SELECTOR, ".file").text for r in rows] == [
            "pkg/shop.py",
            "pkg/tax.py",
        ]
        assert driver.find_element(By.ID, "count-open").text == "2"

        # keyboard: j moves to tax.py, k back to shop.py, Enter opens it
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys("j")
        assert "selected" in rows[1].get_attribute("class")
        body.send_keys("k")
        shop_id = selected_row_id(driver)
        assert shop_id.startswith("edit-")
        body.send_keys("\n")
        wait_for_path(driver, "/change/" + shop_id)
        boxes = driver.find_elements(By.CSS_SELECTOR, "input[name=hunk]")
        assert [b.get_attribute("value") for b in boxes] == ["1", "2", "3"]
        assert driver.find_elements(By.CSS_SELECTOR, "table.unified span.mf")  # 0.25 highlighted
        assert "scripted:scripted-edits" in driver.find_element(By.CSS_SELECTOR, "aside").text

        driver.find_element(By.ID, "view-split").click()
        WebDriverWait(driver, 20).until(
            expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "table.split"))
        )
        driver.find_element(By.ID, "hunk-box-2").click()  # untick the rounded total
        driver.find_element(By.ID, "accept-selected").click()
        wait_for_path(driver, "/")
        notice = driver.find_element(By.CSS_SELECTOR, ".notice").text
        assert "hunks 1,3" in notice and "other hunks were discarded" in notice

        driver.find_element(By.LINK_TEXT, "pkg/tax.py").click()
        driver.find_element(By.ID, "reason").send_keys(REASON)
        driver.find_element(By.ID, "reject").click()
        wait_for_path(driver, "/")
        assert "the reason is stored" in driver.find_element(By.CSS_SELECTOR, ".notice").text
        assert "Nothing here" in driver.page_source  # the queue is empty

        driver.get(url.split("?")[0] + "runs")
        first_run = driver.find_element(By.CSS_SELECTOR, "#runs tbody tr")
        assert first_run.find_element(By.CSS_SELECTOR, ".succeeded").text == "2"
        assert "1 accepted" in first_run.text and "1 rejected" in first_run.text

        # the button runs `remora analyze --retry-rejected`; the page shows the new run
        script_retry(root)
        driver.find_element(By.ID, "retry-rejected").click()
        WebDriverWait(driver, 120, poll_frequency=0.3).until(
            lambda d: (
                len(d.find_elements(By.CSS_SELECTOR, "#runs tbody tr[data-run]")) == 2
                and d.find_element(
                    By.CSS_SELECTOR, "#runs tbody tr[data-run] .phase"
                ).text.startswith("finished")
            )
        )
        driver.find_element(By.LINK_TEXT, "Queue").click()
        rows = driver.find_elements(By.CSS_SELECTOR, "#queue tbody tr")
        assert len(rows) == 1 and "tax rounded to cents" in rows[0].text

    assert (root / "pkg" / "shop.py").read_bytes() == SHOP_HUNKS_1_AND_3.encode()
    assert (root / "pkg" / "tax.py").read_bytes() == TAX.encode()
    with ResultsDB(root) as db:
        decided = {r.file_path: r for r in db.list(states=["accepted", "rejected"])}
        retried = db.pending()
        assert db.open_rejections() == []
    assert [(r.file_path, r.summary) for r in retried] == [
        ("pkg/tax.py", "tax rounded to cents, 0.2 kept")
    ]
    assert decided["pkg/shop.py"].review_state == "accepted"
    assert decided["pkg/shop.py"].accepted_hunks == [1, 3]
    assert decided["pkg/tax.py"].review_state == "rejected"
    assert decided["pkg/tax.py"].reject_reason == REASON
    assert "+    return amount * RATE" in (decided["pkg/tax.py"].rejected_diff or "")


def selected_row_id(driver: WebDriver) -> str:
    """The workspace id of the selected queue row."""
    selected = driver.find_element(By.CSS_SELECTOR, "#queue tbody tr.selected")
    return (selected.get_attribute("id") or "").removeprefix("row-")


def test_the_runs_page_follows_a_running_analyze_without_reloading(tmp_path: Path) -> None:
    root = make_project(tmp_path / "shop", delay_s=1.0)
    with serve(root) as url, chromium() as driver:
        driver.get(url)
        wait_for_path(driver, "/")
        driver.find_element(By.LINK_TEXT, "Runs").click()
        wait_for_path(driver, "/runs")
        driver.execute_script("window.remoraMarker = 'still the same page';")
        analyze = remora_background(root, "analyze", "pkg", "-o", "edit")
        seen: list[tuple[str, str, str]] = []

        def progress(d: WebDriver) -> bool:
            # one script reads the three cells, so a poll cannot land between them
            cells = d.execute_script(READ_NEWEST_RUN)
            if not cells:
                return False
            state = (str(cells[0]), str(cells[1]), str(cells[2]))
            if not seen or seen[-1] != state:
                seen.append(state)
            return state[2].startswith("finished")

        try:
            WebDriverWait(driver, 120, poll_frequency=0.2).until(progress)
        finally:
            _out, err = analyze.communicate(timeout=120)
        assert analyze.returncode == 0, err
        marker = driver.execute_script("return window.remoraMarker;")
    assert marker == "still the same page"  # updated in place, never reloaded
    assert any(phase == "running" and int(done) < 5 for done, _, phase in seen), seen
    assert seen[-1][:2] == ("5", "5"), seen


READ_NEWEST_RUN = """
const row = document.querySelector("#runs tbody tr[data-run]");
return row && [".done", ".tasks", ".phase"].map((c) => row.querySelector(c).textContent);
"""
