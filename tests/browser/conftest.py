"""Browser tests: Playwright (sync API) driving Debian's Chromium headless against pytest-django's
live server. Without /usr/bin/chromium they are skipped, unless BROWSER_TESTS=required (CI), when
they fail instead. Screenshots go to test-artifacts/screenshots/ for a person to look at."""
from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest

CHROMIUM = Path(os.getenv("CHROMIUM", "/usr/bin/chromium"))
REQUIRED = os.getenv("BROWSER_TESTS", "").strip().lower() == "required"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make between
# browser steps are still plain synchronous code, so Django's async guard is told to let them be.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"browser tests are required (BROWSER_TESTS=required) but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def rules_loaded(transactional_db):
    from django.core.management import call_command
    call_command("load_rules", stdout=StringIO())


@pytest.fixture
def site(live_server, rules_loaded):
    """The live server's address, with the rules loaded into its database."""
    return live_server.url


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # The site sends a Content-Security-Policy; anything it refuses (an inline script or style) is a
    # console error naming the policy, and fails the test like a script error.
    page.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def shoot():
    """shoot(page, name): a screenshot of the viewport in test-artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, full_page: bool = False) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path
    return take
