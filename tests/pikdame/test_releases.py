"""The released-versions registry every game keeps (engine.core.releases): the versions
a game is built with stay, frozen ones come and go, and a version not kept fails with the game's
own error class carrying the version asked for."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import gin
from engine.core.errors import EngineError
from engine.core.releases import Releases, UnknownRelease
from engine.pikdame import releases as pikdame_releases


class UnknownToy(UnknownRelease):
    """A toy game's error for a version it does not keep."""


Toy = Callable[[int], int]


def _registry() -> Releases[Toy]:
    return Releases({"toy/1": abs}, UnknownToy)


def test_a_registry_keeps_its_built_in_versions_and_registered_ones() -> None:
    kept = _registry()
    assert sorted(kept) == ["toy/1"] and "toy/1" in kept and len(kept) == 1
    assert kept.bots_of("toy/1") is abs
    kept.register("toy/0", int)
    assert sorted(kept) == ["toy/0", "toy/1"] and kept["toy/0"] is int
    assert kept.bots_of("toy/0") is int
    kept.unregister("toy/0")
    kept.unregister("toy/1")  # built in: it stays
    kept.unregister("never-kept")  # nothing to forget: no error
    assert sorted(kept) == ["toy/1"]


@pytest.mark.parametrize("version", ["toy/9", None, 3, ["toy/1"]])
def test_a_version_not_kept_raises_the_games_error_carrying_it(version: object) -> None:
    kept = _registry()
    with pytest.raises(UnknownToy) as raised:
        kept.bots_of(version)
    error = raised.value
    assert isinstance(error, UnknownRelease) and isinstance(error, EngineError)
    assert error.version == version and error.input == version
    assert error.code == "unknown_engine"
    assert error.known == ("toy/1",)
    assert repr(version) in error.message and "released here: toy/1" in error.message
    assert error.to_json() == {"code": "unknown_engine", "message": error.message}


def test_the_error_lists_what_is_kept_when_it_is_raised() -> None:
    kept = _registry()
    kept.register("toy/0", int)
    with pytest.raises(UnknownToy) as raised:
        kept.bots_of("toy/2")
    assert raised.value.known == ("toy/0", "toy/1")
    assert "released here: toy/0, toy/1" in raised.value.message


def test_each_game_raises_its_own_error_class() -> None:
    with pytest.raises(pikdame_releases.UnknownVersion) as pikdame:
        pikdame_releases.bots_of("pikdame-engine/rules-0/bots-0")
    assert pikdame.value.version == "pikdame-engine/rules-0/bots-0"
    assert pikdame.value.known == tuple(sorted(pikdame_releases.RELEASED))
    with pytest.raises(gin.UnknownVersion) as gin_error:
        gin.bots_of("pikdame-gin/rules-1/bots-0")
    assert gin_error.value.version == "pikdame-gin/rules-1/bots-0"
    assert not isinstance(gin_error.value, pikdame_releases.UnknownVersion)
    assert not isinstance(pikdame.value, gin.UnknownVersion)


def test_a_games_built_in_versions_cannot_be_unregistered() -> None:
    """Only the built-in versions are tried: a version another test registered (a test bot's)
    may be kept beside them while this runs, and is not this test's to remove."""
    for module in (pikdame_releases, gin.releases):
        built = module.RELEASED.builtin
        assert module.CURRENT in built
        for version in built:
            module.unregister(version)
        assert all(version in module.RELEASED for version in built)
