"""The fake GitHub on loopback (tests/gamedata/conftest.py) for the hostile suite's game-data cases."""
from tests.gamedata.conftest import hub, network  # noqa: F401 (fixtures)
