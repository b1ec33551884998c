"""One export registry (armylists/exports/registry.py) behind every door: a list's page, an event's
submission, the API's export and `export_list` offer and accept the same formats by the same names,
`txt` and `text` are one export everywhere, and the command's PDF carries the "data as of" stamp the
site's does."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from armylists.events.submitting import submit_list
from armylists.exports import registry
from armylists.exports.pdf_list import PrintedList
from armylists.exports.pdf_muster import Muster, MusterList, render_muster
from armylists.listfiles import formats
from armylists.listfiles.formats import ListWriter
from armylists.lists.library.catalogue import book_for, validate_roster
from armylists.models import Event
from armylists.rules import parse_roster

from tests.exports.test_pdf import pages

pytestmark = pytest.mark.django_db
# An empire list of the site's own rules data: its stamp needs no game data version
STAMP = "Data as of: Empire of Sonnstahl 0.11.1 (this site's rules data)"


def pdf_text(content: bytes) -> str:
    return " ".join(pages(content))


@pytest.fixture
def fake_writer(monkeypatch):
    """A writer registered as an importer registers one (listfiles/formats.py), for every list."""
    writer = ListWriter("fake", "Fake (.fake)", "text/plain; charset=utf-8", lambda roster, book: True,
                        lambda roster, book, total: f"{roster.name}: {total}\n".encode())
    monkeypatch.setitem(formats.WRITERS, "fake", writer)
    return writer


def run_command(capsys, *args) -> tuple[int, str, str]:
    try:
        call_command("export_list", *map(str, args))
        code = 0
    except SystemExit as stop:
        code = stop.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def submission(alice, bob, alice_list):
    event = Event.objects.create(organiser=bob, name="Club GT", date=date.today() + timedelta(days=30),
                                 system="t9a-0.11", points_limit=2400, deadline=timezone.now() + timedelta(days=20))
    return submit_list(event, alice, alice_list)


def test_it_names_each_export_once_with_the_importers_writers_after_ours():
    entries = registry.exports()
    assert [e.name for e in entries[:3]] == ["text", "json", "pdf"]
    assert {"ros", "rosz"} <= set(registry.names())  # BattleScribe's, registered at start (apps.py)
    every = registry.names(aliases=True)
    assert len(every) == len(set(every)) and "txt" in every
    assert registry.find("txt") is registry.find("text") is registry.TEXT
    assert registry.find("docx") is None
    assert [e.name for e in entries if e.stamped] == ["pdf"]


def test_every_export_is_offered_by_the_list_page_and_each_link_downloads(client_alice, alice_list, fake_writer):
    response = client_alice.get(reverse("list-detail", args=[alice_list.pk]))
    base = f"/lists/{alice_list.pk}/download/"
    links = response.context["downloads"]
    roster = parse_roster(alice_list.document)
    offered = registry.offered(book_for(roster), roster)
    assert [e.name for e in offered] == ["text", "json", "pdf", "fake"]  # a roster tree's writers apply to trees
    for entry in offered:
        urls = [url for _, url in links if url.startswith(f"{base}{entry.extension}/")]
        assert urls, entry.name
        for url in urls:
            answer = client_alice.get(url)
            assert (answer.status_code, answer["Content-Type"]) == (200, entry.content_type), url
            assert answer["Content-Disposition"].endswith(f'.{entry.extension}"')
    assert client_alice.get(f"{base}fake/").content == b"Sonnstahl combined arms: 2390\n"


def test_an_events_submission_offers_and_downloads_the_same(client, alice, submission, fake_writer):
    client.force_login(alice)
    page = client.get(reverse("submission-detail", args=[submission.event_id, submission.pk]))
    base = reverse("submission-download", args=[submission.event_id, submission.pk, "json"]).removesuffix("json/")
    assert [label for label, _ in page.context["downloads"]] == [
        "Text", "JSON", "PDF roster", "PDF, compact", "PDF, hidden list", "Fake (.fake)"]
    for _, url in page.context["downloads"]:
        assert url.startswith(base) and client.get(url).status_code == 200, url
    text = client.get(f"{base}txt/")
    again = client.get(f"{base}text/")
    assert text.content == again.content and b"Marshal" in text.content
    assert again["Content-Disposition"] == f'attachment; filename="alice-{submission.checksum}.txt"'
    assert STAMP in pdf_text(client.get(f"{base}pdf/").content)
    assert client.get(f"{base}exe/").status_code == 404


def test_the_api_and_the_command_take_every_name_and_give_the_same_file(api_alice, alice_list, fake_writer,
                                                                         tmp_path, capsys):
    alice_list.refresh_from_db()  # the document as stored (PostgreSQL's jsonb orders an object's keys its way)
    source = tmp_path / "list.json"
    source.write_text(json.dumps(alice_list.document))
    roster = parse_roster(alice_list.document)
    for name in registry.names(aliases=True):
        entry = registry.find(name)
        answer = api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/", {"as": name})
        if not entry.applies(roster, book_for(roster)):
            # a roster tree's .ros and .rosz (tests/battlescribe/test_battlescribe_site_tree.py): known, refused
            assert answer.status_code == 400 and "written as" in answer.content.decode(), name
            continue
        assert (answer.status_code, answer["Content-Type"]) == (200, entry.content_type), name
        assert answer["Content-Disposition"] == f'attachment; filename="list-{alice_list.pk}.{entry.extension}"'
        out_file = tmp_path / f"out.{entry.extension}"
        code, out, err = run_command(capsys, source, "--format", name, "--output", out_file)
        assert (code, err) == (0, ""), name
        assert out.startswith(f"{source}: wrote {out_file} ({entry.name}")
        if entry.binary:
            assert pdf_text(out_file.read_bytes()) == pdf_text(answer.content)
        else:
            assert out_file.read_bytes() == answer.content, name


def test_txt_and_text_are_one_export_on_the_list_page_the_api_and_the_command(client_alice, api_alice, alice_list,
                                                                              tmp_path, capsys):
    site = [client_alice.get(reverse("list-download", args=[alice_list.pk, name])) for name in ("txt", "text")]
    assert site[0].content == site[1].content
    assert {r["Content-Disposition"] for r in site} == {'attachment; filename="Sonnstahl-combined-arms.txt"'}
    api = [api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/", {"as": name}).content for name in ("txt", "text")]
    source = tmp_path / "list.json"
    source.write_text(json.dumps(alice_list.document))
    command = [run_command(capsys, source, "--format", name)[1] for name in ("txt", "text")]
    assert api[0] == api[1] == site[0].content == command[0].encode() == command[1].encode()


def test_the_commands_pdf_carries_the_sites_data_as_of_stamp(client_alice, alice_list, tmp_path, capsys):
    source = tmp_path / "list.json"
    source.write_text(json.dumps(alice_list.document))
    for variant in ("full", "compact", "hidden", "warband"):
        code, _, err = run_command(capsys, source, "--format", "pdf", "--variant", variant)
        assert (code, err) == (0, "")
        assert STAMP in pdf_text((tmp_path / "list.pdf").read_bytes()), variant
    site = client_alice.get(reverse("list-download", args=[alice_list.pk, "pdf"]), {"variant": "full"})
    assert STAMP in pdf_text(site.content)


def test_the_muster_is_laid_out_by_the_exports_part(alice_list):
    roster = parse_roster(alice_list.document)
    book = book_for(roster)
    printed = PrintedList(book, roster, validate_roster(book, roster), data_as_of="the day's data")
    lists = (MusterList("Alice", "Reds", "Empire of Sonnstahl 0.11.1", 2390, "67aff9afa7", printed),
             MusterList("Bob", "", "Lost book 1", 0, "0123456789", None, "no book lost-book version 1"))
    steps = []
    content = render_muster(Muster("Club GT", "2026-05-01 \u00b7 2 approved lists", "bob", lists),
                            date(2026, 5, 1), progress=lambda done, total: steps.append((done, total)))
    text = pdf_text(content)
    assert "Club GT" in text and "Alice (Reds)" in text and "Data as of: the day's data" in text
    assert "This list cannot be printed: no book lost-book version 1" in text and "2026-05-01" in text
    assert steps and {total for _, total in steps} == {4}
    assert [done for done, _ in steps] == sorted(done for done, _ in steps) and steps[0][0] == 2
