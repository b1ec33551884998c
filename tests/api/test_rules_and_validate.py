"""Public rules endpoints, the stateless validation endpoint and the API's own documentation."""
from __future__ import annotations

import json

import pytest
from rest_framework.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db


def test_systems_list_their_books(api_anonymous):
    data = {s["id"]: s for s in api_anonymous.get("/api/v1/systems/").json()}
    assert set(data) == {"t9a-0.11", "t9a-2", "mordheim", "the-old-world"}
    assert data["t9a-2"]["books"] == []  # the 2nd edition's rules; its books come from import_nr_t9a
    assert [b["id"] for b in data["t9a-0.11"]["books"]] == ["empire-of-sonnstahl", "ogre-khans"]
    assert [c["id"] for c in data["t9a-0.11"]["categories"]] == ["lords", "heroes", "core", "special", "rare"]
    assert (data["mordheim"]["budget_unit"], [c["id"] for c in data["mordheim"]["categories"]]) == (
        "gc", ["heroes", "henchmen", "hired-swords"])


def test_an_unknown_system_is_404(api_anonymous):
    assert api_anonymous.get("/api/v1/systems/warmachine/").json()["error"]["message"] == "No game system 'warmachine'."


def test_book_detail_has_every_entry_option_mount_and_item(api_anonymous, library):
    data = api_anonymous.get("/api/v1/books/t9a-0.11/empire-of-sonnstahl/0.11.1/").json()
    book = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    assert [e["id"] for e in data["entries"]] == list(book.entries)
    assert sum(len(e.get("options", [])) for e in data["entries"]) == sum(len(e.options) for e in book.entries.values())
    assert [m["id"] for m in data["mounts"]] == list(book.mounts)
    assert len(data["items"]) + len(data["common_items"]) == len(book.items)


def test_an_unknown_book_version_is_404(api_anonymous):
    response = api_anonymous.get("/api/v1/books/t9a-0.11/ogre-khans/9.9/")
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "No army book 'ogre-khans' version '9.9' in 't9a-0.11'."


def test_validate_answers_the_report_and_saves_nothing(api_anonymous, legal_document, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = api_anonymous.post("/api/v1/validate/", json.dumps(legal_document), content_type="application/json")
    data = response.json()
    assert response.status_code == 200
    assert (data["valid"], data["total_points"], data["violations"]) == (True, 2390, [])


def test_validate_an_illegal_list(api_anonymous, legal_document):
    legal_document["units"].append({"id": "tank-2", "entry": "steam-tank"})
    data = api_anonymous.post("/api/v1/validate/", json.dumps(legal_document), content_type="application/json").json()
    assert data["valid"] is False
    assert [(v["code"], v["unit"]) for v in data["violations"]] == [
        ("points.over_limit", None), ("category.max_percent", None), ("one_of_a_kind.max", "tank-2")]


def test_validate_names_the_bad_field(api_anonymous, legal_document):
    legal_document["points_limit"] = -5
    response = api_anonymous.post("/api/v1/validate/", json.dumps(legal_document), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == [{"path": "points_limit", "message": "-5 is less than the minimum of 1"}]


def test_validate_refuses_a_body_that_is_not_a_document(api_anonymous):
    response = api_anonymous.post("/api/v1/validate/", json.dumps([1, 2]), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "The body must be a list document (a JSON object)."


def test_validate_is_throttled(api_anonymous, legal_document, monkeypatch):
    from django.core.cache import cache
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"validate": "2/minute"})
    codes = [api_anonymous.post("/api/v1/validate/", json.dumps(legal_document),
                                content_type="application/json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    cache.clear()


def test_the_openapi_schema_and_its_docs_page_are_served_without_a_cdn(api_anonymous, client):
    schema = client.get("/api/schema/?format=json").json()
    assert schema["openapi"].startswith("3.")
    assert {"/api/v1/lists/", "/api/v1/lists/{id}/", "/api/v1/validate/"} <= set(schema["paths"])
    page = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower() and "https://" not in page
    assert client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js").status_code == 200


def test_the_schema_documents_the_servers_414_on_every_operation(client):
    # gunicorn answers a request line over 4094 bytes with 414 before Django (schemathesis generated one in
    # .ci/run's api-contract stage on GET /api/v1/lists/{id}/revisions/diff/): every operation documents it.
    schema = client.get("/api/schema/?format=json").json()
    operations = [(path, method, op) for path, ops in schema["paths"].items() for method, op in ops.items()]
    assert len(operations) >= 25
    assert [(path, method) for path, method, op in operations if "414" not in op["responses"]] == []
    diff = schema["paths"]["/api/v1/lists/{id}/revisions/diff/"]["get"]["responses"]
    assert sorted(diff) == ["200", "400", "401", "403", "404", "406", "414"]
    assert "content" not in diff["414"]
