"""`manage.py export_list` and `import_list`: what they write, and one clear line (exit 2) for bad input."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from armylists.lists.library.catalogue import disk_library
from armylists.exports import document_json, export_text
from armylists.rules import parse_roster, validate

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
LEGAL = EXAMPLES / "empire-2400-legal.json"
ILLEGAL = EXAMPLES / "empire-2400-illegal.json"
pytestmark = pytest.mark.django_db  # a version not on disk is looked up among the stored ones


def run(capsys, command: str, *args) -> tuple[int, str, str]:
    try:
        call_command(command, *map(str, args))
        code = 0
    except SystemExit as stop:
        code = stop.code
    out = capsys.readouterr()
    return code, out.out, out.err


def legal_text() -> str:
    roster = parse_roster(json.loads(LEGAL.read_text()))
    book = disk_library().book(roster.system, roster.book, roster.book_version)
    return export_text(book, roster, validate(book, roster))


def test_export_writes_a_pdf_and_says_what_it_wrote(capsys, tmp_path):
    out_file = tmp_path / "roster.pdf"
    code, out, err = run(capsys, "export_list", LEGAL, "--format", "pdf", "--output", out_file)
    assert (code, err) == (0, "")
    assert out == f"{LEGAL}: wrote {out_file} (pdf, full): LEGAL, 2390 of 2400 pts, checksum 67aff9afa7\n"
    assert len(PdfReader(out_file).pages) == 3


def test_export_of_a_pdf_defaults_to_the_list_file_with_pdf_suffix(capsys, tmp_path):
    copy = tmp_path / "mine.json"
    copy.write_bytes(ILLEGAL.read_bytes())
    code, out, _ = run(capsys, "export_list", copy, "--format", "pdf", "--variant", "compact")
    assert code == 0
    assert out == f"{copy}: wrote {tmp_path / 'mine.pdf'} (pdf, compact): NOT LEGAL (11 errors), 1903 of 2400 pts, " \
                  f"checksum 50b8b1f6ec\n"
    assert len(PdfReader(tmp_path / "mine.pdf").pages) == 1


def test_export_as_text_goes_to_standard_output(capsys):
    code, out, err = run(capsys, "export_list", LEGAL, "--format", "text")
    assert (code, err) == (0, "")
    assert out == legal_text()


def test_export_as_json_is_the_canonical_document(capsys):
    code, out, _ = run(capsys, "export_list", LEGAL, "--format", "json")
    assert code == 0
    assert out == document_json(parse_roster(json.loads(LEGAL.read_text())))


def test_export_reads_a_list_in_text_too(capsys, tmp_path):
    text_file = tmp_path / "list.txt"
    text_file.write_text(legal_text())
    code, out, _ = run(capsys, "export_list", text_file, "--format", "text")
    assert (code, out) == (0, legal_text())


def test_a_variant_for_text_is_refused(capsys):
    code, out, err = run(capsys, "export_list", LEGAL, "--format", "text", "--variant", "hidden")
    assert (code, out) == (2, "")
    assert err == f"{LEGAL}: --variant and --share-url apply to --format pdf only\n"


def test_export_of_a_missing_file_exits_2_naming_it(capsys, tmp_path):
    code, out, err = run(capsys, "export_list", tmp_path / "nope.json", "--format", "pdf")
    assert (code, out) == (2, "")
    assert err == f"{tmp_path / 'nope.json'}: cannot be read: No such file or directory\n"


def test_export_of_a_broken_document_exits_2_naming_the_path(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "armylist/1",')
    code, _, err = run(capsys, "export_list", bad, "--format", "json")
    assert code == 2
    assert err == f"{bad}: (top level): is not valid JSON: Expecting property name enclosed in double quotes " \
                  f"at line 1, column 25\n"


def test_export_to_a_folder_that_does_not_exist_exits_2(capsys, tmp_path):
    target = tmp_path / "missing" / "x.pdf"
    code, out, err = run(capsys, "export_list", LEGAL, "--format", "pdf", "--output", target)
    assert (code, out) == (2, "")
    assert err == f"{target}: cannot be written: No such file or directory\n"


def test_a_pdf_never_overwrites_the_list_it_prints(capsys, tmp_path):
    odd = tmp_path / "list.pdf"
    odd.write_bytes(LEGAL.read_bytes())
    code, _, err = run(capsys, "export_list", odd, "--format", "pdf")
    assert code == 2
    assert err == f"{odd}: the PDF would overwrite the list; give --output\n"
    assert odd.read_bytes() == LEGAL.read_bytes()


def test_import_of_text_prints_the_document_and_the_report(capsys, tmp_path):
    text_file = tmp_path / "list.txt"
    text_file.write_text(legal_text())
    code, out, err = run(capsys, "import_list", text_file)
    assert code == 0
    document = json.loads(out)
    assert [u["id"] for u in document["units"]][:3] == ["u1", "u2", "u3"]
    assert [u["entry"] for u in document["units"]][:3] == ["marshal", "prelate", "captain"]
    assert err.splitlines()[0] == f"{text_file}: LEGAL"
    assert "Empire of Sonnstahl 0.11.1 - limit 2400 pts (Standard army) - total 2390 pts - 10 pts left" in err


def test_import_with_output_writes_the_file_and_prints_the_report(capsys, tmp_path):
    text_file, json_file = tmp_path / "list.txt", tmp_path / "list.json"
    text_file.write_text(legal_text().replace("Spear, Musician", "Spear, Champion, Musician"))
    code, out, err = run(capsys, "import_list", text_file, "--output", json_file)
    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == [f"{text_file}: wrote {json_file}", f"{text_file}: LEGAL"]
    assert "total 2400 pts - 0 pts left" in out  # the Champion priced by the engine: 2390 + 10, at the limit
    document = json.loads(json_file.read_text())
    assert document["units"][5] == {"id": "u6", "entry": "heavy-infantry", "size": 23, "options": {"spear": 1},
                                    "command": ["champion", "musician", "standard"]}


def test_import_of_json_writes_it_back_canonical(capsys, tmp_path):
    messy = tmp_path / "messy.json"
    messy.write_text(json.dumps(json.loads(LEGAL.read_text()), indent=1, sort_keys=True))
    code, out, _ = run(capsys, "import_list", messy)
    assert code == 0
    assert out == document_json(parse_roster(json.loads(LEGAL.read_text())))


def test_import_of_a_misspelt_unit_names_file_line_and_suggestion(capsys, tmp_path):
    text_file = tmp_path / "list.txt"
    text_file.write_text(legal_text().replace("80 - 10 Light Infantry", "80 - 10 Light Infantri"))
    code, out, err = run(capsys, "import_list", text_file)
    assert (code, out) == (2, "")
    assert err == f'{text_file}: line 18: no unit "Light Infantri" in Empire of Sonnstahl 0.11.1; ' \
                  f'did you mean "Light Infantry"?\n'


def test_import_of_an_unknown_book_version_exits_2(capsys, tmp_path):
    text_file = tmp_path / "list.txt"
    text_file.write_text(legal_text().replace("Empire of Sonnstahl 0.11.1", "Empire of Sonnstahl 0.9"))
    code, _, err = run(capsys, "import_list", text_file)
    assert code == 2
    assert err == f'{text_file}: line 4: Empire of Sonnstahl version "0.9" is not loaded; available: 0.11.1\n'


def test_import_of_bytes_that_are_not_text_exits_2(capsys, tmp_path):
    junk = tmp_path / "list.txt"
    junk.write_bytes(b"List: \xff\xfe\n")
    code, _, err = run(capsys, "import_list", junk)
    assert code == 2
    assert err == f"{junk}: is not UTF-8 text: invalid start byte\n"


def test_import_reads_text_with_a_byte_order_mark_and_windows_line_ends(capsys, tmp_path):
    text_file = tmp_path / "list.txt"
    text_file.write_bytes(b"\xef\xbb\xbf" + legal_text().replace("\n", "\r\n").encode())
    code, out, _ = run(capsys, "import_list", text_file)
    assert code == 0
    assert len(json.loads(out)["units"]) == 15


def test_the_pdf_written_by_the_command_reads_back(capsys, tmp_path):
    out_file = tmp_path / "hidden.pdf"
    code, _, _ = run(capsys, "export_list", LEGAL, "--format", "pdf", "--variant", "hidden", "--output", out_file,
                     "--share-url", "https://armylists.example/l/1")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(out_file.read_bytes())).pages)
    assert code == 0
    assert "Hidden sheet" in text and "https://armylists.example/l/1" in text.replace("\n", "")


def test_a_mordheim_warband_prints_as_a_warband_sheet_unless_asked_otherwise(capsys, tmp_path):
    warband = EXAMPLES / "reikland-mercenaries-legal.json"
    sheet_file, full_file = tmp_path / "sheet.pdf", tmp_path / "full.pdf"
    code, out, err = run(capsys, "export_list", warband, "--format", "pdf", "--output", sheet_file)
    assert (code, err) == (0, "")
    assert out == f"{warband}: wrote {sheet_file} (pdf, warband): LEGAL, 500 of 500 gc, checksum 4d588f0c1c\n"
    sheet = " ".join(page.extract_text() for page in PdfReader(sheet_file).pages)
    assert "Gold left" in sheet and "Warband rating" in sheet
    code, out, _ = run(capsys, "export_list", warband, "--format", "pdf", "--variant", "full", "--output", full_file)
    assert out == f"{warband}: wrote {full_file} (pdf, full): LEGAL, 500 of 500 gc, checksum 4d588f0c1c\n"
    full = " ".join(page.extract_text() for page in PdfReader(full_file).pages)
    assert "Points left" in full and "Gold left" not in full
