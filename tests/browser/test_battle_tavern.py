"""Issue 42 item 6 in a real browser: "Send to Battle Tavern" on a list of The Old World posts, from the
player's browser, the field Old World Builder's Battle Tavern page posts (`data`: OWB's storage, its
"owb.lists" a JSON text of the lists) to the game's address on the player's own machine, and the page's
Content-Security-Policy lets that form go there (a refused form-action is a console error, which fails
the `page` fixture). Battle Tavern is a stand-in here: an http.server on 127.0.0.1 that records the
POST, on a free port given to the site as BATTLE_TAVERN_PORT (47823 may be in use by the real game)."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs

import pytest
from csp.constants import SELF

from armylists.exports.owb_list import owb_list
from armylists.lists.library.catalogue import disk_library
from armylists.rules import parse_roster

from ..conftest import EXAMPLES
from ..web.conftest import make_list
from .test_event import PASSWORD, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


class _Tavern(BaseHTTPRequestHandler):
    """Battle Tavern's import address, as far as the site can know it: a POST to /import."""
    received: list[tuple[str, str, bytes]] = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.received.append((self.path, self.headers.get("Content-Type", ""), body))
        answer = b"<!doctype html><title>Battle Tavern</title><p>Imported"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


@pytest.fixture
def tavern(settings):
    _Tavern.received = []
    server = HTTPServer(("127.0.0.1", 0), _Tavern)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.BATTLE_TAVERN_PORT = port
    policy = json.loads(json.dumps(settings.CONTENT_SECURITY_POLICY))
    policy["DIRECTIVES"]["form-action"] = [SELF, f"http://127.0.0.1:{port}"]  # as settings.py makes it
    settings.CONTENT_SECURITY_POLICY = policy
    yield port
    server.shutdown()
    server.server_close()


def test_send_to_battle_tavern_posts_owbs_storage_to_the_players_machine(site, page, shoot, tavern,
                                                                         django_user_model):
    player = django_user_model.objects.create_user("tess", "tess@example.com", PASSWORD)
    document = json.loads((EXAMPLES / "dwarfen-mountain-holds-legal.json").read_text())
    army_list = make_list(player, document)
    log_in(page, site, "tess")
    page.goto(f"{site}/lists/{army_list.pk}/")
    button = page.locator("#battle-tavern button")
    assert button.inner_text() == "Send to Battle Tavern"
    shoot(page, "battle-tavern-list-page")
    with page.context.expect_page() as opened:  # the form opens the game's answer in a new tab
        button.click()
    answer = opened.value
    answer.wait_for_load_state()
    assert answer.url == f"http://127.0.0.1:{tavern}/import" and "Imported" in answer.content()

    assert len(_Tavern.received) == 1
    path, content_type, body = _Tavern.received[0]
    assert (path, content_type) == ("/import", "application/x-www-form-urlencoded")
    fields = parse_qs(body.decode())
    assert list(fields) == ["data"]
    storage = json.loads(fields["data"][0])
    roster = parse_roster(document)
    book = disk_library().book(roster.system, roster.book, roster.book_version)
    assert json.loads(storage["owb.lists"]) == [owb_list(book, roster)]
    assert json.loads(storage["owb.lists"])[0]["name"] == "The Grudge of Karak Norn"
