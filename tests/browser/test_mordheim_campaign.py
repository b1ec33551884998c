"""Issue 41's browser test: a Reikland warband in its campaign, in a real Chromium at 1366 and 390 px.

Three battles recorded on the campaign page (htmx), each through its steps (the result, injuries,
experience, exploration, selling, buying, the review), with the dice entered as rolled at the table: an
injury with its follow-up roll (Arm wound, D6 2: misses the next game), a hero levelling up (the Captain
at 24 XP), a henchman's "the lad's got talent", exploration with a double (Straggler) and a triple
(Tavern), shards sold by the price grid, a rare item bought after a rarity roll; then the warband sheet
downloaded and read back with pypdf. The campaign of two players: test_mordheim_campaign_league.py.
"""
from __future__ import annotations

import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from armylists.models import ArmyList
from armylists.rules import parse_roster, validate
from armylists.lists.library.catalogue import book_for

from tests.campaigns.conftest import WARBAND

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PASSWORD = "a-long-pass-phrase-41"


def log_in(page, site: str) -> None:
    page.goto(site + "/accounts/login/")
    page.fill("#id_username", "reikland")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def next_step(page, name: str) -> None:
    """Next, and wait for the step `name` the campaign panel swaps in (htmx)."""
    page.click("#step-next")
    expect(page.locator(f"#step-{name}")).to_be_visible()


def battle(page, number: int, result: str, *, exploration: str, table_dice: str = "", injuries=None, sit_out=(),
           out_of_action=(), kills=None, sell: int | None = None, buy: dict | None = None) -> str:
    """One battle through the page's steps, in the rulebook's order (forms.STEPS), then recorded."""
    expect(page.locator("#step-result")).to_be_visible()
    page.check(f"#id_result_{['won', 'lost', 'draw'].index(result)}")
    for uid in sit_out:
        page.uncheck(f"[id='id_{uid}-fought']")
    for uid in out_of_action:
        page.check(f"[id='id_{uid}-ooa']")
    for uid, n in (kills or {}).items():
        page.fill(f"[id='id_{uid}-kills']", str(n))
    next_step(page, "injuries")
    for uid, dice in (injuries or {}).items():
        page.fill(f"[id='id_{uid}-injury']", dice)
    next_step(page, "experience")
    page.fill("#id_table_dice", table_dice)
    next_step(page, "exploration")
    page.fill("#id_exploration_dice", exploration)
    next_step(page, "selling")
    if sell:
        page.fill("#id_sell_shards", str(sell))
    next_step(page, "buying")
    for field, value in (buy or {}).items():
        if field in ("buy_unit", "buy_searcher"):
            page.select_option(f"#id_{field}", value)
        else:
            page.fill(f"#id_{field}", str(value))
    next_step(page, "review")
    preview = page.inner_text("#battle-preview")
    page.click("#record-battle")
    expect(page.locator("#battle-log h2")).to_have_text(f"Battle {number}: {result}")
    log = page.inner_text("#battle-log")
    assert all(line in log for line in preview.splitlines()[1:] if line.strip())  # recorded as previewed
    return log


def test_a_reikland_warband_through_three_battles(site, page, shoot, django_user_model):
    user = django_user_model.objects.create_user("reikland", "", PASSWORD)
    roster = parse_roster(WARBAND)
    warband = ArmyList(owner=user)
    warband.set_document(roster, validate(book_for(roster), roster))
    warband.save()
    log_in(page, site)
    page.goto(f"{site}/lists/{warband.pk}/campaign/")
    expect(page.locator("#campaign-rating")).to_have_text("88")

    # 1. Won; the Champion put out of action: D66 23 (Arm wound), D6 2 (misses the next game). Three heroes
    # standing and the winner's die: four exploration dice, a double of fours (Straggler), 11: 2 shards.
    log = battle(page, 1, "won", out_of_action=["champion"], kills={"captain": 1}, exploration="4 4 1 2",
                 injuries={"champion": "23 2"})
    assert "Champion (champion) out of action: D66 23, Arm wound; D6 2: Light arm wound, misses the next game." in log
    assert "Exploration: 4 dice, 4 4 1 2 = 11: 2 shards; Straggler (fours x2)." in log
    shoot(page, "campaign-battle-1")

    # 2. Lost, the Champion sitting it out. The Captain reaches 25 XP: his advance at 24, 2D6 8 then D6 4,
    # +1 Ld. The Warriors pass 2 XP: 2D6 11, the lad's got talent; the new hero rolls 3 (a skill), the
    # rest re-roll 8 (+1 A). A triple of ones (Tavern), 3: 1 shard; three shards sold, 12 warriors: 60 gc.
    log = battle(page, 2, "lost", sit_out=["champion"], kills={"captain": 1}, exploration="1 1 1", sell=3,
                 table_dice="advance:captain 8 4\nadvance:warriors 11 8\nadvance:warriors-lad1 3\n"
                            "advance:youngblood 6 1\nadvance:youngblood-2 9 2\nadvance:marksmen 5")
    assert "Mercenary Captain (captain): advance at 24 XP, 2D6 8, D6 4: +1 Ld." in log
    assert "Warriors (warriors): advance at 2 XP, 2D6 11: the lad's got talent! warriors-lad1 becomes a hero " \
           "(combat, shooting)." in log
    assert "Exploration: 3 dice, 1 1 1 = 3: 1 shard; Tavern (ones x3)." in log
    assert "Sold 3 shards (12 warriors): 60 gc." in log
    expect(page.locator("#campaign-treasury")).to_have_text("60 gc")

    # 3. Won; an elven cloak (rare 8) looked for by the Captain: 2D6 9, found, 50 gc into the stash.
    log = battle(page, 3, "won", exploration="6 5 4 3 2 1",
                 buy={"buy_item": "elven-cloak", "buy_unit": "", "buy_price": 50, "buy_rarity": 8,
                      "buy_searcher": "captain", "rarity_roll": 9})
    assert "Mercenary Captain (captain) looks for elven-cloak (rare 8): 2D6 9, found." in log
    expect(page.locator("#campaign-treasury")).to_have_text("10 gc")
    expect(page.locator("#campaign-stash")).to_have_text("elven-cloak")
    expect(page.locator("#campaign-battles")).to_have_text("3 (2 won)")
    shoot(page, "campaign-1366", full_page=True)

    warband.refresh_from_db()
    assert warband.revision == 4 and len(warband.document["campaign"]["battles"]) == 3
    assert validate(book_for(parse_roster(warband.document)), parse_roster(warband.document)).valid

    # The warband sheet, read back: the campaign's figures and each warrior's record.
    response = page.request.get(f"{site}/lists/{warband.pk}/download/pdf/?variant=warband")
    assert response.status == 200
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
    text = " ".join(text.split())
    assert "Treasury Wyrdstone Battles" in text and "10 gc 4 3 (2 won)" in text  # 21 explored in battle 3: 4 shards
    assert "Stash elven cloak" in text
    assert "Injuries Arm wound / Light arm wound" in text
    assert "Advances +1 Ld Experience 27" in text
    assert "1 × Warriors (made a hero) 40 gc" in text and "Skills strike to injure" in text

    # 390 px: the same page on a phone, its figures and the form's button in reach.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site}/lists/{warband.pk}/campaign/")
    expect(page.locator("#campaign-rating")).to_be_visible()
    expect(page.locator("#step-next")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "campaign-390", full_page=True)
