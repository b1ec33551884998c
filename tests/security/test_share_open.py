"""A list shared as its hidden list's open part (issue 43 item 1; The 9th Age's hidden lists, 000:L133-149).

Both players give the opponent the open part (000:L136-138); the magical items are hidden (000:L139-142)
but their mundane type is open (000:L143-145), and units alike but for hidden things are told apart
(000:L146-149). A link shared so (the share form's action `share-open`) shows, to anybody, no hidden item,
no cost of one and never the hidden sheet: not on its page, not in its one download (the open part's PDF),
not through a copy, the other downloads or the API. The owner and the organiser of an event the list is
submitted to still see everything. The access rows: who x door, each asserting what is shown and what is not.
"""
from __future__ import annotations

import io
from pathlib import Path
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from armylists.lists.library.catalogue import get_book
from armylists.models import ArmyList, Event, Submission

pytestmark = pytest.mark.django_db

HIDDEN_ITEMS = ("giant-sword", "talisman-of-greater-shielding", "rending-banner", "dispel-scroll")  # the example's


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


@pytest.fixture
def book(alice_list):
    return get_book(alice_list.system, alice_list.book, alice_list.book_version)


@pytest.fixture
def item_names(book):
    """The names of the example's magical items, each one the open part must never show."""
    names = [book.items[i].name for i in HIDDEN_ITEMS]
    assert len(set(names)) == 4 and all(len(n) > 6 for n in names)
    return names


@pytest.fixture
def open_list(client, alice, alice_list):
    client.force_login(alice)
    response = client.post(reverse("list-share", args=[alice_list.pk]), {"action": "share-open"})
    assert response.status_code == 302
    client.logout()
    alice_list.refresh_from_db()
    assert alice_list.share_token and alice_list.share_open
    return alice_list


def visitor(who: str, users: dict) -> Client:
    client = Client()
    if who != "anonymous":
        client.force_login(users[who])
    return client


WHO = ["anonymous", "bob", "alice"]  # alice, the owner, holding her own link sees what the link shows


@pytest.mark.parametrize("who", WHO)
def test_the_open_link_shows_the_units_and_no_hidden_item_or_its_cost(open_list, item_names, alice, bob, book, who):
    response = visitor(who, {"alice": alice, "bob": bob}).get(reverse("shared-list", args=[open_list.share_token]))
    assert response.status_code == 200 and response["X-Robots-Tag"] == "noindex"
    page = response.content.decode()
    assert "The open part of a hidden list" in page and 'id="unit-marshal"' in page
    for name in item_names:
        assert name not in page, name
    assert "Hidden sheet" not in page and "Copy to my lists" not in page
    assert f"/lists/{open_list.pk}/" not in page and 'action="/lists/' not in page and 'action="/s/' not in page
    # each unit's points leave out its hidden items' cost (000:L2846-2849 prices them by category)
    marshal = next(u for u in response.context["report"].units if u.id == "marshal")
    hidden = sum(book.items[i].price_for(marshal.category) for i in ("giant-sword", "talisman-of-greater-shielding"))
    assert hidden > 0
    shown = {u.id: u.points for _, units in response.context["groups"] for u in units}
    assert shown["marshal"] == f"{marshal.points - hidden} pts + hidden"
    assert shown["tank"] == f"{next(u.points for u in response.context['report'].units if u.id == 'tank')} pts"
    assert f">{marshal.points} pts<" not in page


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("variant", ["", "?variant=hidden", "?variant=full", "?variant=open"])
def test_the_open_links_pdf_is_the_open_part_whatever_variant_is_asked(open_list, item_names, alice, bob, who, variant):
    client = visitor(who, {"alice": alice, "bob": bob})
    response = client.get(reverse("shared-download", args=[open_list.share_token, "pdf"]) + variant)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="Sonnstahl-combined-arms-open.pdf"'
    printed = pdf_text(response.content)
    assert "This is the open part only" in printed and "Marshal" in printed and "+ hidden" in printed
    assert "Hidden sheet" not in printed
    for name in item_names:
        assert name not in printed, name


@pytest.mark.parametrize("fmt", ["json", "txt", "text", "ros", "rosz", "docx"])
def test_the_open_link_offers_no_other_download(client, open_list, fmt):
    response = client.get(reverse("shared-download", args=[open_list.share_token, fmt]))
    assert response.status_code == 404


def test_the_open_link_cannot_be_copied(client, bob, open_list):
    client.force_login(bob)
    response = client.post(reverse("shared-copy", args=[open_list.share_token]))
    assert response.status_code == 404
    assert ArmyList.objects.filter(owner=bob).count() == 0


def test_the_api_shows_an_open_shared_list_to_nobody_but_its_owner(api_anonymous, api_bob, api_alice, open_list,
                                                                   item_names):
    for client, status in ((api_anonymous, 401), (api_bob, 404)):
        for path in ("", "report/", "export/?as=pdf", "export/?as=json"):
            response = client.get(f"/api/v1/lists/{open_list.pk}/{path}")
            assert response.status_code == status, (path, response.content[:200])
            assert not any(name in response.content.decode(errors="replace") for name in item_names)
    own = api_alice.get(f"/api/v1/lists/{open_list.pk}/export/?as=text").content.decode()
    assert all(name in own for name in item_names)


def test_the_owner_still_sees_everything(client, alice, open_list, item_names):
    client.force_login(alice)
    page = client.get(reverse("list-detail", args=[open_list.pk])).content.decode()
    assert all(name in page for name in item_names)
    assert "open part</strong> of your hidden list only" in page
    hidden_pdf = client.get(reverse("list-download", args=[open_list.pk, "pdf"]) + "?variant=hidden")
    printed = pdf_text(hidden_pdf.content)
    assert "Hidden sheet" in printed and all(name in printed for name in item_names)


def test_the_organiser_of_an_event_it_is_submitted_to_sees_everything(client, alice, bob, open_list, item_names,
                                                                      tasks_at_once):
    event = Event.objects.create(organiser=bob, name="Hidden Open", date=date.today() + timedelta(days=10),
                                 system="t9a-0.11", books=[], points_limit=2400,
                                 deadline=timezone.now() + timedelta(days=5))
    client.force_login(alice)
    client.post(reverse("event-submit", args=[event.pk]), {"army_list": open_list.pk})
    submission = Submission.objects.get()
    client.force_login(bob)
    page = client.get(reverse("submission-detail", args=[event.pk, submission.pk])).content.decode()
    assert all(name in page for name in item_names)
    sheet = client.get(reverse("submission-download", args=[event.pk, submission.pk, "pdf"]) + "?variant=hidden")
    assert sheet.status_code == 200
    printed = pdf_text(sheet.content)
    assert "Hidden sheet" in printed and all(name in printed for name in item_names)


def test_changing_the_kind_of_link_makes_a_new_one_and_the_old_stops(client, alice, alice_list, item_names):
    """An open-part link given to an opponent never comes to show the whole list: sharing the whole list
    makes a new token; and the other way round."""
    client.force_login(alice)
    client.post(reverse("list-share", args=[alice_list.pk]), {"action": "share"})
    alice_list.refresh_from_db()
    whole = alice_list.share_token
    client.post(reverse("list-share", args=[alice_list.pk]), {"action": "share-open"})
    alice_list.refresh_from_db()
    opened = alice_list.share_token
    assert opened != whole and alice_list.share_open
    client.post(reverse("list-share", args=[alice_list.pk]), {"action": "share-open"})  # again: the same link
    alice_list.refresh_from_db()
    assert alice_list.share_token == opened
    client.post(reverse("list-share", args=[alice_list.pk]), {"action": "share"})
    alice_list.refresh_from_db()
    assert alice_list.share_token not in (whole, opened) and not alice_list.share_open
    client.logout()
    assert client.get(reverse("shared-list", args=[whole])).status_code == 404
    assert client.get(reverse("shared-list", args=[opened])).status_code == 404
    assert client.get(reverse("shared-download", args=[opened, "pdf"])).status_code == 404
    page = client.get(reverse("shared-list", args=[alice_list.share_token])).content.decode()
    assert all(name in page for name in item_names)  # the whole list, on its own new link
    client.force_login(alice)
    client.post(reverse("list-share", args=[alice_list.pk]), {"action": "revoke"})
    alice_list.refresh_from_db()
    assert (alice_list.share_token, alice_list.share_open) == (None, False)


@pytest.mark.parametrize("action", ["share-open", "share"])
def test_only_the_owner_may_share_the_open_part(client, bob, alice_list, action):
    client.force_login(bob)
    assert client.post(reverse("list-share", args=[alice_list.pk]), {"action": action}).status_code == 404
    alice_list.refresh_from_db()
    assert (alice_list.share_token, alice_list.share_open) == (None, False)


def test_an_unknown_action_shares_nothing(client, alice, alice_list):
    client.force_login(alice)
    assert client.post(reverse("list-share", args=[alice_list.pk]), {"action": "share-all"}).status_code == 404
    alice_list.refresh_from_db()
    assert alice_list.share_token is None


T9A = Path(__file__).resolve().parents[2].parent / "shared" / "external" / "battlescribe" / "the-9th-age-2nd"


@pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
def test_a_roster_trees_open_part_shows_no_selection_and_no_points_of_a_unit_holding_any(client, alice):
    """A roster tree's data does not say which selections are magical items, so the open part of a unit
    that holds any shows neither them nor its points (any figure could tell what they are worth)."""
    from tests.battlescribe.imported import import_battlescribe
    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-dwarvenHolds.cat")
    client.force_login(alice)
    client.post("/lists/new/", {"name": "Hold", "book": "bs-the-9th-age-fantasy-battles-2nd-edition-2024/"
                                                        "bs-dwarven-holds-2024/r57", "points_limit": "2000"})
    tree = ArmyList.objects.get(owner=alice)
    client.post(reverse("unit-add", args=[tree.pk]), {"revision": 1, "entry": "e197-83e0-bb7b-35be"})  # a King
    shield = "e1b5-41cd-8f96-9563::ff97-a295-86c8-76d5"
    king = ArmyList.objects.get(pk=tree.pk).document["forces"][0]["selections"][0]["id"]
    client.post(f"/lists/{tree.pk}/units/{king}/", {"revision": 2, "only": f"sel-{shield}", f"sel-{shield}": "on"})
    tree.refresh_from_db()
    assert tree.total_points == 235  # the King (215) and his Shield (20)
    client.post(reverse("list-share", args=[tree.pk]), {"action": "share-open"})
    tree.refresh_from_db()
    client.logout()
    response = client.get(reverse("shared-list", args=[tree.share_token]))
    assert response.status_code == 200
    [(category, [unit])] = response.context["groups"]
    assert (unit.line.split(",")[0], unit.points) == ("King", "pts hidden")
    page = response.content.decode()
    assert "Shield" not in page and "235 pts" not in page and "215" not in page
    printed = pdf_text(client.get(reverse("shared-download", args=[tree.share_token, "pdf"])).content)
    assert "King" in printed and "pts hidden" in printed and "Shield" not in printed and "Hidden sheet" not in printed


def test_the_open_part_is_offered_where_the_game_has_hidden_lists(client, alice, alice_list, book):
    """The 9th Age has hidden lists (its system data's `hidden_list`, 000:L133-149): the owner's page offers
    the open part beside the whole list."""
    assert book.system.hidden_list
    client.force_login(alice)
    page = client.get(reverse("list-detail", args=[alice_list.pk])).content.decode()
    assert 'value="share-open"' in page and 'value="share"' in page
