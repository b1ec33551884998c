"""The fake GitHub on loopback and the settings that point the game data part at it (tests only)."""
from __future__ import annotations

import pytest

from armylists.gamedata import fetching
from armylists.lists.library import catalogue
from tests.fake_github import EXTERNAL, FakeGitHub, Repo, files_from, zip_of

MORDHEIM = EXTERNAL / "battlescribe" / "mordheim"
# The game system and one catalogue: enough for a real import, quick enough for a test.
MORDHEIM_FILES = ["Mordheim.gst", "Reiklanders.cat"]
SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture(autouse=True)
def fresh_stored_books():
    """Books built from the database are kept per process (lists/library/catalogue.py); each test here imports
    its own data under the same names and versions, so none may see an earlier test's."""
    catalogue._stored_books.clear()
    yield
    catalogue._stored_books.clear()


@pytest.fixture
def mordheim_zip() -> bytes:
    if not MORDHEIM.is_dir():
        pytest.skip(f"BattleScribe's Mordheim data is not at {MORDHEIM} (/work/shared/external)")
    return zip_of(files_from(MORDHEIM, MORDHEIM_FILES), "BSData-mordheim-0123456")


@pytest.fixture
def network(monkeypatch):
    """Every name asked of the resolver and every address connected to; the resolver answers 127.0.0.1
    itself, `network.answers[host]` for the hosts a test names, and refuses any other (no DNS packet)."""

    class Network:
        answers: dict[str, list[str]] = {}
        resolved: list[str] = []
        connected: list[str] = []

    real_connect = fetching.socket.create_connection

    def resolve(host: str, port: int) -> list[str]:
        Network.resolved.append(host)
        if host == "127.0.0.1":
            return ["127.0.0.1"]
        if host in Network.answers:
            return Network.answers[host]
        raise fetching.FetchError(f"{host} cannot be resolved (the tests ask no DNS server)")

    def connect(address, *args, **kwargs):
        Network.connected.append(address[0])
        assert address[0] == "127.0.0.1", address
        return real_connect(address, *args, **kwargs)

    Network.answers, Network.resolved, Network.connected = {}, [], []
    monkeypatch.setattr(fetching, "resolve", resolve)
    monkeypatch.setattr(fetching.socket, "create_connection", connect)
    return Network


@pytest.fixture
def hub(settings, network):
    with FakeGitHub() as fake:
        settings.GAME_DATA_GITHUB_API = fake.url
        settings.GAME_DATA_HOSTS = ["127.0.0.1"]
        settings.GAME_DATA_TEST_LOOPBACK = True
        yield fake


@pytest.fixture
def mordheim(hub, mordheim_zip) -> Repo:
    repo = Repo(archive=mordheim_zip, release="v1.0")
    hub.repos["BSData/mordheim"] = repo
    return repo


CAPTAIN_COST = (b'<cost name="pts" typeId="points" value="60"/>', b'<cost name="pts" typeId="points" value="70"/>')


@pytest.fixture
def changed_data(mordheim):
    """BSData/mordheim at v1.0, then v1.1: Reiklanders revision 11, whose Mercenary Captain costs 70 gc, not 60
    (and `renamed`: v1.1 also calls the Youngblood "Youngbloods", so a list with one cannot move)."""
    from armylists.gamedata.sources import add_source
    from armylists.gamedata.updating import update

    source = add_source("BSData/mordheim")
    update(source)

    def release(tag: str = "v1.1", renamed: bool = False):
        files = files_from(MORDHEIM, MORDHEIM_FILES)
        cat = files["Reiklanders.cat"].replace(b'revision="10"', b'revision="11"', 1).replace(*CAPTAIN_COST)
        if renamed:
            cat = cat.replace(b'name="Youngblood" page="0"', b'name="Youngbloods" page="0"')
        files["Reiklanders.cat"] = cat
        mordheim.release, mordheim.archive = tag, zip_of(files, "BSData-mordheim-1111111")
        return update(source)

    source.release = release
    return source
