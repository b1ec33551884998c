"""What the site does not check of an imported BattleScribe book is on the book's page, for the curious,
and never on a player's list page, editor, report API or PDF (issue 22 item 4); a list that uses
something the evaluator does not understand is never called legal, and says so in one plain sentence."""
from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from armylists.lists.trees import battlescribe_data
from armylists.models import ArmyList
from armylists.rules.battlescribe.document import UNSUPPORTED

from tests.battlescribe.battlescribe_samples import GST, catalogue
from tests.battlescribe.test_battlescribe_site_tree import BOOK, SYSTEM, T9A, VERSION, dwarves, import_dwarven_holds  # noqa: F401

pytestmark = pytest.mark.django_db

# What the importer noted of 2nd-dwarvenHolds.cat: two "add category" modifiers (Miners, Rangers) and
# thirteen name modifiers of shooting weapons (2nd-dwarvenHolds.cat), in its own words.
INTERNAL = ("Not checked", "modifier add of category", "Dwarven Holds 2024 &gt; Miners", "display only")


def pdf_text(client, pk: int) -> str:
    from pypdf import PdfReader

    pdf = client.get(f"/lists/{pk}/download/pdf/?variant=full").content
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)


def flat(html: str) -> str:
    return " ".join(html.split())


@pytest.fixture
def dwarven_holds():
    """The shared data's Dwarven Holds, for the tests that read them (not the one that needs no shared data)."""
    import_dwarven_holds()


@pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
def test_the_book_page_lists_what_the_import_did_not_map_and_the_list_never_does(dwarven_holds, dwarves, api_alice,
                                                                                client):
    page = flat(client.get(f"/books/{SYSTEM}/{BOOK}/{VERSION}/").content.decode())
    assert '<h2 id="not-checked">What the site does not check</h2>' in page
    assert "Lists of this book are checked by the data's own rules" in page
    # Every unit entry of the 2nd-edition Dwarven Holds tried alone (lists/trees/tree_coverage.py): nothing met.
    assert "<p>Trying each unit entry of the book alone, the check met no rule it does not evaluate.</p>" in page
    # The stored book lists what the evaluator does not evaluate, and it evaluates every constraint and
    # modifier here (the retired flattened rules could not map 2 category modifiers and 13 name modifiers).
    assert "<h3>Not in the site's own book format</h3>" not in page
    assert "Not checked," not in page
    king = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json")
    report = king.json()["report"]
    assert report["unchecked"] == [] and "bs.unsupported" not in [v["code"] for v in report["violations"]]
    for url in (f"/lists/{dwarves.pk}/", f"/lists/{dwarves.pk}/edit/"):
        shown = client.get(url).content.decode()
        assert [w for w in INTERNAL if w in shown] == [] and "to check yourself" not in shown, url
    printed = pdf_text(client, dwarves.pk)
    assert "King" in printed and [w for w in ("Not checked", "modifier add of category", "Miners") if w in printed] == []


ODD = """
    <selectionEntry id="oddity" name="Oddity" type="unit">
      <categoryLinks><categoryLink id="o-cat" targetId="cat-core" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts-1" value="5"/></costs>
      <selectionEntries>
        <selectionEntry id="odd-part" name="Odd Part" type="upgrade">
          <constraints><constraint id="c-odd" type="max" field="no-such-field" scope="parent" value="1"/></constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>"""


@pytest.fixture
def odd_book(tmp_path):
    """The sample catalogue with a unit whose option's constraint counts a field no data declares: met only
    in a list holding that unit."""
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue(extra=ODD))
    call_command("import_battlescribe", str(tmp_path), verbosity=0)
    battlescribe_data.clear()


def test_a_list_using_what_is_not_understood_is_never_legal_and_says_so_plainly(odd_book, alice, api_alice, client):
    client.force_login(alice)
    made = client.post("/lists/new/", {"name": "Odd", "book": "bs-test-battles/bs-test-knights/r7", "points_limit": "2000"})
    assert made.status_code == 302
    saved = ArmyList.objects.get(owner=alice)
    captain = api_alice.post(f"/api/v1/lists/{saved.pk}/units/", {"entry": "Captain"}, format="json").json()
    assert captain["report"]["violations"] == [], captain
    odd = api_alice.post(f"/api/v1/lists/{saved.pk}/units/", {"entry": "Oddity"}, format="json").json()
    assert odd["report"]["valid"] is False
    assert [(v["code"], v["message"]) for v in odd["report"]["violations"]] == [("bs.unsupported", UNSUPPORTED)]
    saved.refresh_from_db()
    assert saved.valid is False
    editor = client.get(f"/lists/{saved.pk}/edit/").content.decode()
    assert UNSUPPORTED.replace("'", "&#x27;") in editor and "no-such-field" not in editor
    assert 'href="/books/bs-test-battles/bs-test-knights/r7/"' in editor   # "see the book's page": one click
    printed = pdf_text(client, saved.pk)
    assert UNSUPPORTED in printed and "no-such-field" not in printed
    # The book's page names it, found by trying each unit entry alone.
    page = flat(client.get("/books/bs-test-battles/bs-test-knights/r7/").content.decode())
    assert ('<p>Trying each unit entry of the book alone, the check met these rules it does not evaluate:</p> '
            '<ul class="not-evaluated"><li>constraint field &#x27;no-such-field&#x27;</li></ul>') in page
