"""The lists API: create, read, replace with a revision check, delete; bad input saves nothing."""
from __future__ import annotations

import json

import pytest

from armylists.models import ArmyList

pytestmark = pytest.mark.django_db


def post_json(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def put_json(client, url, body, **headers):
    return client.put(url, json.dumps(body), content_type="application/json", **headers)


def assert_error(response, status, fields=None, message=None):
    """The one error shape every 4xx has."""
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"status", "code", "message", "fields"} and error["status"] == status
    if fields is not None:
        assert error["fields"] == fields
    if message is not None:
        assert error["message"] == message
    return error


class TestCreate:
    def test_it_saves_the_document_and_its_derived_columns(self, api_alice, alice, legal_document):
        response = post_json(api_alice, "/api/v1/lists/", {"document": legal_document})
        assert response.status_code == 201
        saved = ArmyList.objects.get()
        assert (saved.owner, saved.name, saved.book, saved.book_version, saved.points_limit) == (
            alice, "Sonnstahl combined arms", "empire-of-sonnstahl", "0.11.1", 2400)
        assert (saved.total_points, saved.valid, saved.revision) == (2390, True, 1)
        assert saved.document["units"][0] == {"id": "marshal", "entry": "marshal", "options": {"shield": 1},
                                              "mount": "horse", "items": ["giant-sword", "talisman-of-greater-shielding"],
                                              "general": True}
        body = response.json()
        assert (body["id"], body["revision"], body["total_points"], body["valid"]) == (saved.pk, 1, 2390, True)
        assert response["ETag"] == '"1"'

    def test_an_illegal_list_is_saved_and_marked(self, api_alice, legal_document):
        legal_document["units"] = legal_document["units"][:2]
        response = post_json(api_alice, "/api/v1/lists/", {"document": legal_document})
        assert response.status_code == 201
        assert (response.json()["valid"], ArmyList.objects.get().valid) == (False, False)

    def test_malformed_json_is_400_and_saves_nothing(self, api_alice):
        response = api_alice.post("/api/v1/lists/", '{"document": {', content_type="application/json")
        assert_error(response, 400, fields=[], message="The request body is not valid JSON: Expecting property name "
                                                       "enclosed in double quotes at line 1, column 15.")
        assert ArmyList.objects.count() == 0

    def test_a_wrong_type_names_the_path(self, api_alice, legal_document):
        legal_document["units"][4]["size"] = "thirty"
        response = post_json(api_alice, "/api/v1/lists/", {"document": legal_document})
        assert_error(response, 400, fields=[{"path": "document.units[4].size",
                                             "message": "'thirty' is not of type 'integer'"}])
        assert ArmyList.objects.count() == 0

    def test_a_negative_or_absurd_size_is_refused(self, api_alice, legal_document):
        for size, message in ((-2, "-2 is less than the minimum of 1"),
                              (10**7, "10000000 is greater than the maximum of 10000")):
            legal_document["units"][4]["size"] = size
            response = post_json(api_alice, "/api/v1/lists/", {"document": legal_document})
            assert_error(response, 400, fields=[{"path": "document.units[4].size", "message": message}])
        assert ArmyList.objects.count() == 0

    def test_an_unknown_book_is_refused(self, api_alice, legal_document):
        legal_document["book"] = "elven-kingdoms"
        error = assert_error(post_json(api_alice, "/api/v1/lists/", {"document": legal_document}), 400)
        assert error["fields"] == [{"path": "document.book", "message": "unknown army book 'elven-kingdoms' for "
                                    "t9a-0.11; known: empire-of-sonnstahl, ogre-khans"}]

    def test_a_missing_document_is_refused(self, api_alice):
        assert_error(post_json(api_alice, "/api/v1/lists/", {}), 400,
                     fields=[{"path": "document", "message": "This field is required."}])

    def test_a_body_over_the_size_limit_is_refused(self, api_alice, legal_document):
        legal_document["notes"] = "x" * 600_000
        assert_error(post_json(api_alice, "/api/v1/lists/", {"document": legal_document}), 400,
                     message="The request body is larger than 512 kB.")
        assert ArmyList.objects.count() == 0

    def test_a_body_that_is_not_json_is_415(self, api_alice):
        response = api_alice.post("/api/v1/lists/", "name=x", content_type="application/x-www-form-urlencoded")
        assert_error(response, 415)


class TestReadAndReplace:
    def test_read_gives_the_document_and_an_etag(self, api_alice, alice_list):
        response = api_alice.get(f"/api/v1/lists/{alice_list.pk}/")
        assert response.status_code == 200 and response["ETag"] == '"1"'
        assert response.json()["document"] == alice_list.document

    def test_replace_with_the_revision_read_saves_and_bumps_it(self, api_alice, alice_list, legal_document):
        legal_document["name"] = "Renamed"
        legal_document["units"][4]["size"] = 31
        response = put_json(api_alice, f"/api/v1/lists/{alice_list.pk}/", {"document": legal_document},
                            HTTP_IF_MATCH='"1"')
        assert response.status_code == 200 and response["ETag"] == '"2"'
        alice_list.refresh_from_db()
        assert (alice_list.name, alice_list.revision, alice_list.total_points) == ("Renamed", 2, 2396)  # one more halberdier: 5 + 1 pts

    def test_the_revision_may_be_sent_in_the_body(self, api_alice, alice_list, legal_document):
        response = put_json(api_alice, f"/api/v1/lists/{alice_list.pk}/", {"document": legal_document, "revision": 1})
        assert response.status_code == 200
        assert ArmyList.objects.get().revision == 2

    def test_a_stale_revision_is_refused_and_changes_nothing(self, api_alice, alice_list, legal_document):
        put_json(api_alice, f"/api/v1/lists/{alice_list.pk}/", {"document": legal_document}, HTTP_IF_MATCH='"1"')
        legal_document["name"] = "Second writer"
        response = put_json(api_alice, f"/api/v1/lists/{alice_list.pk}/", {"document": legal_document},
                            HTTP_IF_MATCH='"1"')
        assert_error(response, 412, message="The list is at revision 2; you sent 1. Read it again and redo your change.")
        alice_list.refresh_from_db()
        assert (alice_list.name, alice_list.revision) == ("Sonnstahl combined arms", 2)

    def test_an_update_without_a_revision_is_428(self, api_alice, alice_list, legal_document):
        response = put_json(api_alice, f"/api/v1/lists/{alice_list.pk}/", {"document": legal_document})
        assert_error(response, 428)
        assert ArmyList.objects.get().revision == 1

    def test_a_bad_update_changes_nothing(self, api_alice, alice_list, legal_document):
        legal_document["units"][0]["entry"] = "Marshal With Spaces"
        response = put_json(api_alice, f"/api/v1/lists/{alice_list.pk}/", {"document": legal_document},
                            HTTP_IF_MATCH='"1"')
        assert assert_error(response, 400)["fields"][0]["path"] == "document.units[0].entry"
        alice_list.refresh_from_db()
        assert (alice_list.revision, alice_list.document["units"][0]["entry"]) == (1, "marshal")

    def test_delete(self, api_alice, alice_list):
        assert api_alice.delete(f"/api/v1/lists/{alice_list.pk}/").status_code == 204
        assert ArmyList.objects.count() == 0

    def test_delete_with_a_stale_etag_keeps_the_list(self, api_alice, alice_list):
        assert_error(api_alice.delete(f"/api/v1/lists/{alice_list.pk}/", HTTP_IF_MATCH='"7"'), 412)
        assert ArmyList.objects.count() == 1


class TestReportAndExport:
    def test_the_report_is_the_engines(self, api_alice, alice_list):
        data = api_alice.get(f"/api/v1/lists/{alice_list.pk}/report/").json()
        assert (data["valid"], data["total_points"], data["points_left"], data["band"]) == (True, 2390, 10, "standard")
        assert [c["points"] for c in data["categories"]] == [314, 265, 695, 716, 400]

    def test_json_export_is_the_document(self, api_alice, alice_list):
        response = api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=json")
        assert response.status_code == 200 and response.json() == alice_list.document
        assert response["Content-Disposition"] == f'attachment; filename="list-{alice_list.pk}.json"'

    def test_an_unknown_export_format_is_400(self, api_alice, alice_list):
        assert_error(api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=docx"), 400,
                     fields=[{"path": "as", "message": "unknown export format 'docx'; one of: json, text, pdf, tts, owb, ros, rosz."}])

    @pytest.mark.parametrize("name, message", [
        ("tts", "only a Mordheim warband can be written as .tts.txt"),
        ("owb", "only a list of The Old World can be written as .owb.json"),
        ("ros", "only a list of an imported BattleScribe book kept as a roster tree can be written as .ros"),
    ])
    def test_an_export_for_other_lists_says_which_lists_it_takes(self, api_alice, alice_list, name, message):
        # a list of our T9A 0.11 book: neither a warband, nor The Old World, nor a roster tree
        assert_error(api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as={name}"), 400,
                     fields=[{"path": "as", "message": message}])


class TestTextAndPdfAndImport:
    def test_text_export_is_the_tournament_shape(self, api_alice, alice_list):
        response = api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=text")
        assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
        text = response.content.decode()
        assert text.startswith("List: Sonnstahl combined arms\n")
        assert "203 - Marshal, General, Shield, Horse, Giant Sword, Talisman of Greater Shielding" in text

    def test_pdf_export_is_a_pdf_saying_legal(self, api_alice, alice_list):
        import io

        from pypdf import PdfReader
        response = api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=pdf")
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
        assert "LEGAL" in text and "Sonnstahl combined arms" in text and "NOT LEGAL" not in text

    def test_import_a_document(self, api_alice, alice, legal_document):
        response = post_json(api_alice, "/api/v1/lists/import/", legal_document)
        assert response.status_code == 201
        saved = ArmyList.objects.get()
        assert (saved.owner, saved.total_points, saved.valid) == (alice, 2390, True)

    def test_import_text_round_trips_an_export(self, api_alice, alice_list):
        text = api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=text").content.decode()
        response = api_alice.post("/api/v1/lists/import/", text, content_type="text/plain")
        assert response.status_code == 201
        copy = ArmyList.objects.exclude(pk=alice_list.pk).get()
        assert (copy.total_points, copy.valid, len(copy.document["units"])) == (2390, True, 15)

    def test_import_text_with_an_unknown_name_suggests_the_closest(self, api_alice, alice_list):
        text = api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=text").content.decode()
        text = text.replace("Prelate, Great Weapon", "Prelat, Great Weapon")
        error = assert_error(api_alice.post("/api/v1/lists/import/", text, content_type="text/plain"), 400)
        assert len(error["fields"]) == 1 and error["fields"][0]["path"].startswith("line ")
        assert 'did you mean "Prelate"?' in error["fields"][0]["message"]
        assert ArmyList.objects.count() == 1
