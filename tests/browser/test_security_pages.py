"""Pages this hardening added or changed, in a real browser with the Content-Security-Policy on (the
`page` fixture fails on anything the policy refuses): Swagger UI, the API tokens page, the lockout."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_api_docs_draw_under_the_policy(site, page):
    page.goto(site + "/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Army lists API")
    expect(page.locator(".opblock").first).to_be_visible()


def test_a_player_makes_and_revokes_a_token_then_gets_locked_out(site, page, shoot):
    User.objects.create_user("zoe", "zoe@example.com", "a-long-pass-phrase-9")
    page.goto(site + "/accounts/login/")
    page.fill("#id_username", "zoe")
    page.fill("#id_password", "a-long-pass-phrase-9")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(site + "/accounts/tokens/")
    page.fill("#id_name", "my script")
    page.click("main button.button-primary")
    token = page.locator("#new-token").input_value()
    assert len(token) == 64
    shoot(page, "api-tokens")
    page.click("main table button")
    expect(page.locator("main")).to_contain_text("The token is revoked")
    page.context.clear_cookies()
    for _ in range(5):
        page.goto(site + "/accounts/login/")
        page.fill("#id_username", "zoe")
        page.fill("#id_password", "wrong")
        page.click("main button[type=submit]")
    expect(page.locator("main")).to_contain_text("Too many failed log-ins for this account or from your address")
    expect(page.locator("main a", has_text="Reset your password")).to_be_visible()
    shoot(page, "login-locked")
