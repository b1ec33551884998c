"""The validation endpoint's plain answer (api/stateless.py) is the DRF view's answer, byte for byte, and
anything unusual is left to the DRF view; the stateless WSGI handler serves that one address alone."""
from __future__ import annotations

import io
import json

import pytest
from django.test import RequestFactory

from armylists.api.stateless import answer_plainly
from armylists.api.views import ValidateView

from ..conftest import EXAMPLES

pytestmark = pytest.mark.django_db


def post(body: bytes | str, content_type: str = "application/json", **headers):
    return RequestFactory().post("/api/v1/validate/", body, content_type=content_type, headers=headers)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_the_plain_answer_is_the_drf_views_answer(name):
    body = (EXAMPLES / name).read_bytes()
    plain = answer_plainly(post(body), ValidateView)
    drf = ValidateView.as_view()(post(body)).render()
    assert plain is not None
    assert (plain.status_code, plain.content) == (200, drf.content)
    assert dict(plain.headers) == dict(drf.headers)
    assert json.loads(plain.content)["valid"] is name.endswith("-legal.json")


@pytest.mark.parametrize("request_of", [
    lambda doc: post(json.dumps({**doc, "points_limit": -5})),  # a shape error: the schema's message
    lambda doc: post(json.dumps({**doc, "book": "no-such-book"})),  # an unknown book: what is available
    lambda doc: post("{not json"),
    lambda doc: post(json.dumps(doc), content_type="text/plain"),
    lambda doc: post(json.dumps(doc), content_type="application/json; charset=latin-1"),
    lambda doc: post(json.dumps(doc), Accept="text/html"),
    lambda doc: RequestFactory().get("/api/v1/validate/"),
], ids=["bad-shape", "unknown-book", "not-json", "text", "latin-1", "accept-html", "get"])
def test_anything_unusual_is_left_to_the_drf_view(request_of, legal_document):
    assert answer_plainly(request_of(legal_document), ValidateView) is None


def wsgi(path: str, method: str = "GET", body: bytes = b"") -> tuple[str, dict, bytes]:
    from armylists.wsgi import application

    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "SERVER_NAME": "testserver", "SERVER_PORT": "80",
               "HTTP_HOST": "testserver", "wsgi.url_scheme": "http", "QUERY_STRING": "", "wsgi.input": io.BytesIO(body),
               "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)), "REMOTE_ADDR": "127.0.0.1"}
    answer = {}

    def start_response(status, headers):
        answer.update(status=status, headers=dict(headers))
    content = b"".join(application(environ, start_response))
    return answer["status"], answer["headers"], content


def test_the_wsgi_application_answers_the_validation_through_the_stateless_handler(legal_document):
    status, headers, content = wsgi("/api/v1/validate/", "POST", json.dumps(legal_document).encode())
    assert (status, json.loads(content)["total_points"]) == ("200 OK", 2390)
    assert "Set-Cookie" not in headers and headers["X-Content-Type-Options"] == "nosniff"
    # An error from the stateless handler keeps the API's one shape (the DRF view answers it).
    status, _, content = wsgi("/api/v1/validate/", "POST", b'{"format": "armylist/1"}')
    assert status.startswith("400")
    assert json.loads(content)["error"]["fields"] == [{"path": "", "message": "'system' is a required property"}]
    status, _, content = wsgi("/api/v1/validate/")
    assert status.startswith("405") and json.loads(content)["error"]["code"] == "method_not_allowed"


def test_every_other_address_is_the_sites(legal_document):
    status, _, content = wsgi("/api/v1/systems/")
    assert status == "200 OK" and "t9a-0.11" in {s["id"] for s in json.loads(content)}
    status, _, _ = wsgi("/api/v1/validate/extra/")
    assert status.startswith("404")
