"""Untrusted BattleScribe input: no entity expansion, no external entities, no zip bombs, no paths out of
an archive, size caps on files, members and downloads; mutated catalogues give a clear error and leave
the database unchanged."""
from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armylists.importers.battlescribe import convert, read_sources, sources
from armylists.importers.battlescribe.sources import BattleScribeInputError

from tests.battlescribe.battlescribe_samples import GST, catalogue

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<catalogue id="x" name="&lol3;" gameSystemId="sys-1"/>"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE catalogue [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<catalogue id="x" name="&secret;" gameSystemId="sys-1"/>"""


def zipped(members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("text", [BILLION_LAUGHS, EXTERNAL], ids=["entity expansion", "external entity"])
def test_a_dtd_is_refused_so_no_entity_is_expanded_or_fetched(tmp_path, text):
    path = tmp_path / "evil.cat"
    path.write_text(text)
    with pytest.raises(BattleScribeInputError) as caught:
        read_sources([str(path)])
    assert str(caught.value).startswith(f"{path}: refused: DTDForbidden")



def test_a_declared_encoding_that_does_not_exist_is_a_clear_error(tmp_path):
    """Found by the mutation test below: an XML declaration naming "TF-8" made Python raise LookupError."""
    path = tmp_path / "odd.cat"
    path.write_bytes(b'<?xml version="1.0" encoding="TF-8"?><catalogue/>')
    with pytest.raises(BattleScribeInputError) as caught:
        read_sources([str(path)])
    assert str(caught.value) == f"{path}: declares a text encoding that does not exist (unknown encoding: TF-8)"

def test_a_whole_repository_zip_and_a_zipped_catalogue_are_read(tmp_path):
    inner = zipped({"knights.cat": catalogue().encode()})
    (tmp_path / "repo.zip").write_bytes(zipped({"repo-main/test.gst": GST.encode(), "repo-main/k.catz": inner,
                                                "repo-main/README.md": b"not read"}))
    documents = read_sources([str(tmp_path / "repo.zip")])
    assert [d.source.replace(f"{tmp_path}/", "") for d in documents] == [
        "repo.zip!repo-main/test.gst", "repo.zip!repo-main/k.catz!knights.cat"]
    assert [b["id"] for b in convert(documents).books] == ["bs-test-knights"]


@pytest.mark.parametrize("name", ["../evil.cat", "/etc/evil.cat", "a/../../evil.cat", "C:/evil.cat"])
def test_a_member_whose_path_leaves_the_archive_is_refused(tmp_path, name):
    (tmp_path / "repo.zip").write_bytes(zipped({"test.gst": GST.encode(), name: catalogue().encode()}))
    with pytest.raises(BattleScribeInputError) as caught:
        read_sources([str(tmp_path / "repo.zip")])
    assert str(caught.value) == f"{tmp_path / 'repo.zip'}!{name}: the archive names a path outside itself; refused"


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    (tmp_path / "bomb.zip").write_bytes(zipped({"bomb.cat": b"<" + b" " * (20 * 1024 * 1024)}))
    with pytest.raises(BattleScribeInputError) as caught:
        read_sources([str(tmp_path / "bomb.zip")])
    assert str(caught.value) == (f"{tmp_path / 'bomb.zip'}!bomb.cat: unpacks 1028 times its packed size, more than "
                                 f"100: a zip bomb; refused")


def test_files_members_and_downloads_are_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 1000)
    (tmp_path / "big.cat").write_text(catalogue())
    with pytest.raises(BattleScribeInputError) as caught:
        read_sources([str(tmp_path / "big.cat")])
    assert str(caught.value) == f"{tmp_path / 'big.cat'}: is {len(catalogue())} bytes; at most 1000 are read"
    (tmp_path / "big.zip").write_bytes(zipped({"big.cat": catalogue().encode()}, zipfile.ZIP_STORED))
    with pytest.raises(BattleScribeInputError) as caught:
        read_sources([str(tmp_path / "big.zip")])
    assert str(caught.value).endswith(f"big.zip!big.cat: unpacks to {len(catalogue())} bytes; at most 1000")
    monkeypatch.setattr(sources, "MAX_DOWNLOAD_BYTES", 10)

    class Response(io.BytesIO):
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(sources, "open_https", lambda url: Response(b"x" * 11))  # nothing leaves the machine
    with pytest.raises(BattleScribeInputError) as caught:
        read_sources(["https://example.org/big.cat"])
    assert str(caught.value) == "https://example.org/big.cat: the download is larger than 10 bytes"
    with pytest.raises(BattleScribeInputError) as caught:
        sources.download("http://example.org/x.cat")
    assert str(caught.value) == "http://example.org/x.cat: only https:// URLs are downloaded"


def test_an_https_url_is_downloaded_then_read_as_its_name_says(tmp_path):
    fetched = []

    def fetch(url):
        fetched.append(url)
        return zipped({"r/test.gst": GST.encode(), "r/knights.cat": catalogue().encode()})
    documents = read_sources(["https://example.org/repo/archive/main.zip"], fetch=fetch)
    assert fetched == ["https://example.org/repo/archive/main.zip"] and len(documents) == 2


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=len(catalogue()) - 1), junk=st.text(max_size=8),
       drop=st.integers(min_value=0, max_value=40))
def test_a_mutated_catalogue_imports_or_fails_with_one_clear_line_and_changes_nothing(tmp_path_factory, cut, junk,
                                                                                     drop):
    from armylists.models import RulesFile

    folder = tmp_path_factory.mktemp("mutated")
    (folder / "test.gst").write_text(GST)
    text = catalogue()
    (folder / "knights.cat").write_text(text[:cut] + junk + text[cut + drop:])
    before = sorted(RulesFile.objects.values_list("slug", "version", "content_hash"))
    try:
        call_command("import_battlescribe", str(folder), verbosity=0)
    except CommandError as exc:
        message = str(exc)
        if "already loaded with other content" in message:  # an earlier example stored other content as r7
            assert message.startswith("Nothing imported.\nversion r7 of book 'bs-test-knights'")
        else:
            assert message.startswith("Nothing imported. ") and "\n" not in message and exc.returncode == 2
        assert sorted(RulesFile.objects.values_list("slug", "version", "content_hash")) == before
    else:
        assert RulesFile.objects.filter(kind="book").exists()


@pytest.fixture
def loopback_https(tmp_path, monkeypatch):
    """An https server on 127.0.0.1 (a certificate made for the test, trusted by the importer through
    sources.TLS_CONTEXT) and a plain http server beside it that records every request it is sent.
    `paths` maps a path to (status, headers, body). Nothing is sent beyond 127.0.0.1."""
    import http.server
    import shutil
    import ssl
    import subprocess
    import threading

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(tmp_path / "key.pem"),
                    "-out", str(tmp_path / "cert.pem")], check=True, capture_output=True)
    for proxy in ("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(proxy, raising=False)
    paths: dict[str, tuple[int, dict, bytes]] = {}
    plain_requests: list[str] = []

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            status, headers, body = paths.get(self.path, (404, {}, b""))
            self.send_response(status)
            for name, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    class Recorder(Answer):
        def do_GET(self):
            plain_requests.append(self.path)
            super().do_GET()

    secure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    secure.socket = server_context.wrap_socket(secure.socket, server_side=True)
    plain = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    for server in (secure, plain):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setattr(sources, "TLS_CONTEXT", ssl.create_default_context(cafile=str(tmp_path / "cert.pem")))
    try:
        yield (f"https://127.0.0.1:{secure.server_address[1]}", f"http://127.0.0.1:{plain.server_address[1]}", paths,
               plain_requests)
    finally:
        for server in (secure, plain):
            server.shutdown()
            server.server_close()


@pytest.mark.django_db
def test_a_redirect_to_http_is_refused_with_exit_2_and_never_followed(loopback_https):
    from armylists.models import RulesFile

    https, http, paths, plain_requests = loopback_https
    paths["/repo.zip"] = (302, {"Location": f"{http}/repo.zip"}, b"")
    paths["/other.zip"] = (301, {"Location": "ftp://127.0.0.1/repo.zip"}, b"")
    with pytest.raises(CommandError) as caught:
        call_command("import_battlescribe", f"{https}/repo.zip", verbosity=0)
    assert caught.value.returncode == 2
    assert str(caught.value) == (f"Nothing imported. {https}/repo.zip: redirects to {http}/repo.zip, which is not an "
                                 f"https:// URL; refused (only https:// URLs are downloaded)")
    with pytest.raises(BattleScribeInputError) as refused:
        read_sources([f"{https}/other.zip"])
    assert str(refused.value) == (f"{https}/other.zip: redirects to ftp://127.0.0.1/repo.zip, which is not an "
                                  f"https:// URL; refused (only https:// URLs are downloaded)")
    assert plain_requests == [] and not RulesFile.objects.exists()


def test_a_redirect_to_another_https_url_is_followed(loopback_https):
    https, _, paths, _ = loopback_https
    paths["/repo.zip"] = (302, {"Location": f"{https}/moved/repo.zip"}, b"")
    paths["/moved/repo.zip"] = (200, {}, zipped({"r/test.gst": GST.encode(), "r/knights.cat": catalogue().encode()}))
    documents = read_sources([f"{https}/repo.zip"])
    assert sorted(d.source for d in documents) == [f"{https}/repo.zip!r/knights.cat", f"{https}/repo.zip!r/test.gst"]
