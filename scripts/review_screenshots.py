"""Screenshots of `remora serve` for docs/review.md, taken in Debian's headless Chromium.

Usage: .venv/bin/python scripts/review_screenshots.py PROJECT OUT_DIR [CHANGE_ID]

Starts `remora serve PROJECT` on a free port, opens the printed URL and saves
review-queue.png, review-diff.png (unified), review-split.png (side by side)
and review-runs.png into OUT_DIR. CHANGE_ID picks the change shown (default:
the first in the queue). Needs chromium and chromium-driver (scripts/test.sh
installs them); nothing downloads a browser.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
    "--hide-scrollbars",
)


def _serve(project: Path) -> tuple[subprocess.Popen[str], str]:
    remora = str(Path(sys.executable).with_name("remora"))
    process = subprocess.Popen(
        [remora, "serve", str(project), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
        if found:
            return process, found.group(1)
    raise SystemExit(f"remora serve ended without printing its URL (exit {process.wait()})")


def main(project: Path, out: Path, change_id: str | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    process, url = _serve(project)
    base = url.split("?")[0].rstrip("/")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    try:
        with tempfile.TemporaryDirectory(prefix="remora-shots-") as profile:
            for flag in (*FLAGS, f"--user-data-dir={profile}"):
                options.add_argument(flag)
            driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
            try:
                driver.get(url)
                driver.save_screenshot(str(out / "review-queue.png"))
                if change_id is None:
                    first = driver.find_element(By.CSS_SELECTOR, "#queue tbody tr[data-href]")
                    change_id = (first.get_attribute("id") or "").removeprefix("row-")
                driver.get(f"{base}/change/{change_id}")
                driver.save_screenshot(str(out / "review-diff.png"))
                driver.get(f"{base}/change/{change_id}?view=split")
                driver.save_screenshot(str(out / "review-split.png"))
                driver.get(f"{base}/runs")
                driver.save_screenshot(str(out / "review-runs.png"))
            finally:
                driver.quit()
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(f"screenshots of {change_id} in {out}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] if len(sys.argv) == 4 else None)
