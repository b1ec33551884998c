"""Issue 41 item 5's browser test: a campaign of two players recording one battle, in a real Chromium,
Alice at 1366 px and Bob on a 390 px phone, each in their own browser context (their own session).

Alice creates the campaign and enters her warband; Bob joins with the code she reads out; Alice enters
a battle her warband won; Bob first confirms it as a win too (the contradiction is said, nothing is
recorded), then as the loss it was; both warbands have the battle, and the standings (page, CSV, PDF)
count it.
"""
from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from armylists.campaigns.models import CampaignBattle
from armylists.lists.library.catalogue import book_for
from armylists.models import ArmyList
from armylists.rules import parse_roster, validate
from tests.campaigns.conftest import WARBAND

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PASSWORD = "a-long-pass-phrase-41"
HEROES_AND_GROUPS = ["captain", "champion", "youngblood", "warriors", "marksmen", "youngblood-2"]


def warband(user, name: str) -> ArmyList:
    roster = parse_roster(dict(WARBAND, name=name))
    army_list = ArmyList(owner=user)
    army_list.set_document(roster, validate(book_for(roster), roster))
    army_list.save()
    return army_list


def player(browser, site: str, username: str, width: int, errors: list[str]):
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 400 else 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda exc: errors.append(f"{username}: {exc}"))
    page.on("console", lambda msg: errors.append(f"{username}: {msg.text}") if "Content Security Policy" in msg.text
            else None)
    page.goto(site + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return context, page


def side(page, result: str, exploration: str, kills: dict | None = None) -> None:
    page.check(f"#id_result_{['won', 'lost', 'draw'].index(result)}")
    for uid, n in (kills or {}).items():
        page.fill(f"[id='id_{uid}-kills']", str(n))
    page.fill("#id_exploration_dice", exploration)
    page.click("#side-submit")


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_two_players_record_one_battle(site, browser, shoot, django_user_model):
    alice_user = django_user_model.objects.create_user("alice", "", PASSWORD)
    bob_user = django_user_model.objects.create_user("bob", "", PASSWORD)
    reiklanders, marienburgers = warband(alice_user, "Reiklanders"), warband(bob_user, "Marienburgers")
    errors: list[str] = []
    alice_context, alice = player(browser, site, "alice", 1366, errors)
    bob_context, bob = player(browser, site, "bob", 390, errors)
    try:
        # Alice creates the campaign and enters her warband with its code.
        alice.goto(site + "/campaigns/")
        alice.fill("#id_name", "Autumn in Mordheim")
        alice.click("#campaign-create button")
        code = alice.inner_text("#join-code")
        assert len(code) == 10
        alice.goto(site + "/campaigns/")
        alice.fill("#id_code", code)
        alice.select_option("#id_army_list", str(reiklanders.pk))
        alice.click("#campaign-join button")
        expect(alice.locator("#standings tbody tr")).to_have_count(1)

        # Bob, on his phone, joins with the code and his warband.
        bob.goto(site + "/campaigns/")
        bob.fill("#id_code", code)
        bob.select_option("#id_army_list", str(marienburgers.pk))
        bob.click("#campaign-join button")
        expect(bob.locator("#standings tbody tr")).to_have_count(2)
        fits(bob, 390)
        shoot(bob, "campaign-league-joined-390", full_page=True)

        # Alice enters the battle: won, her Captain put one enemy out of action; four heroes standing and the
        # winner's die, five exploration dice.
        alice.reload()
        alice.click("a[id^=battle-new-]")
        alice.select_option("#id_opponent", label="Marienburgers (bob)")
        side(alice, "won", "2 2 5 6 1", kills={"captain": 1})
        expect(alice.locator(".campaign-battle")).to_contain_text("Reiklanders won against Marienburgers · Pending")
        battle = CampaignBattle.objects.get()
        reiklanders.refresh_from_db()
        assert reiklanders.revision == 1  # pending: nothing applied yet
        shoot(alice, "campaign-league-pending-1366", full_page=True)

        # Bob confirms it as a win too: said, nothing recorded.
        bob.reload()
        bob.click(f"#confirm-{battle.pk}")
        expect(bob.locator("#id_result_1")).to_be_checked()  # the other side's result, proposed
        side(bob, "won", "2 2 5 6 1")
        expect(bob.locator("p.error")).to_have_text(
            "Reiklanders entered a win, so this battle is a loss for Marienburgers, not a win. Nothing was recorded.")
        fits(bob, 390)
        # ...and Alice sees the contradiction on the campaign page.
        alice.reload()
        expect(alice.locator(f"#battle-{battle.pk} p.error")).to_contain_text("Marienburgers entered a win, but "
                                                                              "Reiklanders entered a win")

        # Then as the loss it was: four dice (no winner's die). Recorded for both warbands.
        side(bob, "lost", "2 2 5 6")
        expect(bob.locator(f"#battle-{battle.pk}")).to_contain_text("Reiklanders won against Marienburgers · Recorded")
        rows = bob.locator("#standings tbody tr")
        expect(rows.nth(0)).to_contain_text("alice")
        expect(rows.nth(0).locator("td").nth(5)).to_have_text("1")  # won
        expect(rows.nth(1).locator("td").nth(7)).to_have_text("1")  # lost
        fits(bob, 390)
        shoot(bob, "campaign-league-recorded-390", full_page=True)
        reiklanders.refresh_from_db()
        marienburgers.refresh_from_db()
        assert [w.document["campaign"]["battles"][0]["result"] for w in (reiklanders, marienburgers)] == ["won", "lost"]
        assert reiklanders.document["campaign"]["battles"][0]["experience"]["captain"] == 3

        # The standings as CSV and PDF, downloaded in Alice's session.
        alice.reload()
        shoot(alice, "campaign-league-recorded-1366", full_page=True)
        table = list(csv.reader(io.StringIO(alice.request.get(f"{site}/campaigns/{battle.campaign_id}/standings.csv")
                                            .text())))
        assert [r[:3] + r[5:9] for r in table[1:]] == [["1", "alice", "Reiklanders", "1", "1", "0", "0"],
                                                        ["2", "bob", "Marienburgers", "1", "0", "0", "1"]]
        response = alice.request.get(f"{site}/campaigns/{battle.campaign_id}/standings.pdf")
        assert response.status == 200
        text = " ".join(PdfReader(io.BytesIO(response.body())).pages[0].extract_text().split())
        assert "Autumn in Mordheim: standings" in text and "2 warbands · 1 battle recorded · run by alice" in text
        assert f"1 alice Reiklanders Reikland Mercenaries {table[1][4]} 1 1-0-0" in text
    finally:
        alice_context.close()
        bob_context.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
