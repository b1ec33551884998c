"""Issue 41 item 5: a campaign's costs. Run: .venv/bin/python bench/campaign_league.py
On a fresh SQLite database (bench/in_process.py): N warbands (the Reikland example) in one campaign, then
B battles each entered and confirmed (the post-battle sequence on both warbands, one transaction), then
the standings (page data), their CSV and PDF. Prints medians."""
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from in_process import start_site  # noqa: E402

start_site("campaign")
from io import StringIO  # noqa: E402
from django.core.management import call_command  # noqa: E402
call_command("load_rules", stdout=StringIO())
from django.contrib.auth import get_user_model  # noqa: E402
from armylists.campaigns import league  # noqa: E402
from armylists.lists.library.catalogue import book_for  # noqa: E402
from armylists.models import ArmyList  # noqa: E402
from armylists.rules import parse_roster, validate  # noqa: E402
from tests.campaigns.conftest import WARBAND  # noqa: E402

N, B = 20, 30
User = get_user_model()
owner = User.objects.create_user("owner", password="x")
campaign = league.create_campaign(owner, "Bench")
entries = []
for i in range(N):
    user = User.objects.create_user(f"p{i}", password="x")
    roster = parse_roster(dict(WARBAND, name=f"Warband {i}"))
    army_list = ArmyList(owner=user)
    army_list.set_document(roster, validate(book_for(roster), roster))
    army_list.save()
    entries.append(league.enter_warband(campaign, user, army_list))
models = {u: {} for u in ("captain", "champion", "youngblood", "youngblood-2", "warriors", "marksmen")}
enter, confirm = [], []
for n in range(B):
    a, b = entries[n % N], entries[(n + 1) % N]
    t = time.perf_counter()
    battle = league.enter_battle(campaign, a.player, a, b, {"result": "won", "models": models})
    enter.append(time.perf_counter() - t)
    t = time.perf_counter()
    league.confirm_battle(battle, b.player, {"result": "lost", "models": models})
    confirm.append(time.perf_counter() - t)
standings, csv_t, pdf_t = [], [], []
for _ in range(5):
    t = time.perf_counter(); rows = league.standings(campaign); standings.append(time.perf_counter() - t)
    t = time.perf_counter(); league.standings_csv(rows); csv_t.append(time.perf_counter() - t)
    t = time.perf_counter(); league.standings_pdf(campaign); pdf_t.append(time.perf_counter() - t)
ms = lambda xs: f"{statistics.median(xs) * 1000:.1f} ms"  # noqa: E731
print(f"{N} warbands, {B} battles")
print("enter a side (tried on a copy):", ms(enter))
print("confirm (both warbands, one transaction):", ms(confirm))
print("standings:", ms(standings), "· CSV:", ms(csv_t), "· PDF (standings included):", ms(pdf_t))
