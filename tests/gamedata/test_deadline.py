"""A download has one deadline for the whole of it, not a timeout per read (a server sending a byte every
few seconds held the only worker for 170 s), and a redirect goes to the same host and port or to a host at
its scheme's own port, never to another port of an allowed host (issue 38 item 6). Loopback only."""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from armylists.gamedata.fetching import FetchError, Policy, fetch


class Slow(BaseHTTPRequestHandler):
    """/drip: 40 bytes, one every 0.1 s; /here: a redirect to /ok on this port; /away?port=N: to port N."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/drip":
            self.send_response(200)
            self.send_header("Content-Length", "40")
            self.end_headers()
            for _ in range(40):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.1)
        elif self.path in ("/here", "/away"):
            port = self.server.server_address[1] if self.path == "/here" else self.server.other_port
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{port}/ok")
            self.end_headers()
        else:
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server(network):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    httpd.other_port = 1
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def policy(**kwargs) -> Policy:
    return Policy(hosts=("127.0.0.1",), test_loopback=True, **kwargs)


def test_a_server_sending_a_byte_at_a_time_is_stopped_at_the_whole_downloads_deadline(server):
    url = f"http://127.0.0.1:{server.server_address[1]}/drip"
    started = time.monotonic()
    with pytest.raises(FetchError) as caught:
        fetch(url, policy(timeout=1, deadline=1))  # each read comes within 0.1 s: only the deadline stops it
    assert str(caught.value) == f"{url}: the download took longer than 1 s in all; stopped"
    assert time.monotonic() - started < 1.6


def test_a_download_within_its_deadline_is_read_whole(server):
    body, _ = fetch(f"http://127.0.0.1:{server.server_address[1]}/drip", policy(timeout=1, deadline=10))
    assert body == b"x" * 40


def test_a_redirect_to_the_same_host_and_port_is_followed(server):
    port = server.server_address[1]
    assert fetch(f"http://127.0.0.1:{port}/here", policy()) == (b"ok", f"http://127.0.0.1:{port}/ok")


def test_a_redirect_to_another_port_of_an_allowed_host_is_refused(server):
    server.other_port = server.server_address[1] + 1
    port = server.server_address[1]
    with pytest.raises(FetchError) as caught:
        fetch(f"http://127.0.0.1:{port}/away", policy())
    assert str(caught.value) == (f"http://127.0.0.1:{port}/away redirects to http://127.0.0.1:{port + 1}/ok, "
                                 f"another port; refused")
