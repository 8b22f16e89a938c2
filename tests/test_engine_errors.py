"""The engine's exceptions together, one class per meaning (engine/core/errors.py): every exception
class of the engine is defined in an ``errors`` module, a game's own are only subclasses naming
the game (its ``UnknownVersion``), and two classes of one name are such siblings, never unrelated.
The modules that raise them re-export them where callers import them."""

from __future__ import annotations

import importlib
import pkgutil
from collections import defaultdict

import engine
from engine.core import errors


def engine_exceptions() -> list[type[BaseException]]:
    """Every exception class defined in a module of the engine (``__main__`` is not imported: it
    runs the command line)."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__.startswith("engine.")
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


def test_the_walk_finds_the_engines_exceptions() -> None:
    names = {f"{c.__module__}.{c.__name__}" for c in engine_exceptions()}
    assert {
        "engine.core.errors.EngineError",
        "engine.core.errors.InvalidMeld",
        "engine.core.errors.Malformed",
        "engine.core.errors.OutOfBudget",
        "engine.core.errors.UnknownRelease",
        "engine.pikdame.errors.UnknownVersion",
        "engine.gin.errors.UnknownVersion",
    } <= names


def test_every_exception_is_defined_in_an_errors_module() -> None:
    homes = {c.__module__ for c in engine_exceptions()}
    assert homes == {"engine.core.errors", "engine.pikdame.errors", "engine.gin.errors"}


def test_a_games_own_exceptions_only_name_the_game() -> None:
    """A game's class derives directly from one of engine.core.errors: no second meaning."""
    for cls in engine_exceptions():
        if cls.__module__ != "engine.core.errors":
            assert [b.__module__ for b in cls.__bases__] == ["engine.core.errors"], cls


def test_classes_of_one_name_are_siblings_of_one_meaning() -> None:
    by_name: dict[str, list[type[BaseException]]] = defaultdict(list)
    for cls in engine_exceptions():
        by_name[cls.__name__].append(cls)
    for name, classes in sorted(by_name.items()):
        if len(classes) > 1:
            assert len({cls.__bases__ for cls in classes}) == 1, name
            assert all(cls.__bases__[0].__module__ == "engine.core.errors" for cls in classes)


def test_the_old_import_paths_still_work() -> None:
    """Where callers imported the moved classes, the same class is still there."""
    from engine.core.commandline import Malformed
    from engine.core.releases import UnknownRelease
    from engine.gin import UnknownVersion as GinUnknownVersion
    from engine.gin.releases import UnknownVersion as GinReleasesUnknownVersion
    from engine.pikdame import UnknownVersion
    from engine.pikdame.melds import InvalidMeld
    from engine.pikdame.optimiser.search import OutOfBudget
    from engine.pikdame.releases import UnknownVersion as ReleasesUnknownVersion

    assert Malformed is errors.Malformed and issubclass(Malformed, errors.FormatError)
    assert UnknownRelease is errors.UnknownRelease
    assert InvalidMeld is errors.InvalidMeld and InvalidMeld("x").code == "invalid_meld"
    assert OutOfBudget is errors.OutOfBudget and not issubclass(OutOfBudget, errors.EngineError)
    assert UnknownVersion is ReleasesUnknownVersion
    assert GinUnknownVersion is GinReleasesUnknownVersion
    assert not issubclass(UnknownVersion, GinUnknownVersion)
