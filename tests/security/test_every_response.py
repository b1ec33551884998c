"""Every answer carries the site's security headers, and a write to an address without its trailing
slash is a clear 404 (issue 25).

The validation endpoint's stateless handler (api/stateless.py) ran only the security and common
middleware, so its answers had no Content-Security-Policy nor X-Frame-Options; answers made before the
header middleware ran (a NUL in the address, a static file) had none either. A POST to `/lists/import`
(no slash) was Django's APPEND_SLASH RuntimeError under DEBUG (a 500), and without DEBUG a redirect
that turns the POST into a GET and loses its body.
"""
from __future__ import annotations

import io
import json

import pytest
from django.test import override_settings

from armylists.models import ArmyList

pytestmark = pytest.mark.django_db

HEADERS = ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
           "Cross-Origin-Opener-Policy")


def wsgi(path: str, method: str = "GET", body: bytes = b"", query: str = "") -> tuple[str, dict]:
    """The answer of the WSGI application gunicorn serves (the site and the stateless handler)."""
    from armylists.wsgi import application

    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "SERVER_NAME": "testserver", "SERVER_PORT": "80",
               "HTTP_HOST": "testserver", "wsgi.url_scheme": "http", "QUERY_STRING": query,
               "wsgi.input": io.BytesIO(body), "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
               "REMOTE_ADDR": "127.0.0.1"}
    answer: dict = {}

    def start_response(status, headers, exc_info=None):
        answer.update(status=status, headers=dict(headers))
    b"".join(application(environ, start_response))
    return answer["status"], answer["headers"]


@pytest.fixture
def page_headers():
    status, headers = wsgi("/")
    assert status == "200 OK"
    return {name: headers[name] for name in HEADERS}


@pytest.mark.parametrize("method, path, body, query, status", [
    ("GET", "/accounts/login/", b"", "", "200 OK"),  # another page
    ("GET", "/api/v1/systems/", b"", "", "200 OK"),  # an API route
    ("POST", "/api/v1/validate/", None, "", "200 OK"),  # the stateless handler's plain answer
    ("POST", "/api/v1/validate/", b'{"format": "armylist/1"}', "", "400 Bad Request"),  # its DRF answer
    ("GET", "/api/v1/validate/", b"", "", "405 Method Not Allowed"),
    ("GET", "/no-such-page/", b"", "", "404 Not Found"),
    ("GET", "/api/v1/no-such-route/", b"", "", "404 Not Found"),
    ("GET", "/", b"", "q=a%00b", "400 Bad Request"),  # refused before any view (request_checks)
    ("POST", "/lists/import", b"", "", "404 Not Found"),  # no trailing slash
])
def test_every_answer_carries_the_pages_security_headers(page_headers, legal_document, method, path, body, query,
                                                         status):
    body = json.dumps(legal_document).encode() if body is None else body
    answer_status, headers = wsgi(path, method, body, query)
    assert answer_status == status
    assert {name: headers.get(name) for name in HEADERS} == page_headers
    assert page_headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in \
        page_headers["Content-Security-Policy"]


@pytest.mark.parametrize("debug", [True, False])
def test_a_post_without_the_trailing_slash_is_a_404_naming_the_address_with_it(client, alice, debug):
    client.force_login(alice)
    with override_settings(DEBUG=debug):
        response = client.post("/lists/import", {"text": "anything"})
    assert response.status_code == 404
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == ("POST /lists/import: there is nothing at this address; the address "
                                         "ends with a slash: /lists/import/")
    assert not ArmyList.objects.exists()


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_an_api_write_without_the_trailing_slash_is_a_404_in_the_apis_shape(api_alice, method):
    with override_settings(DEBUG=True):
        response = getattr(api_alice, method)("/api/v1/lists", {}, format="json")
    assert response.status_code == 404
    assert response.json() == {"error": {"status": 404, "code": "not_found", "fields": [], "message": (
        f"{method.upper()} /api/v1/lists: there is nothing at this address; the address ends with a slash: "
        f"/api/v1/lists/")}}
    assert not ArmyList.objects.exists()


def test_a_get_without_the_trailing_slash_is_still_redirected(client):
    with override_settings(DEBUG=True):
        response = client.get("/accounts/login?next=/lists/")
    assert (response.status_code, response["Location"]) == (301, "/accounts/login/?next=/lists/")
