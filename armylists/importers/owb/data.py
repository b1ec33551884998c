"""Old World Builder's data as read from disk, and the vocabulary the importer shares.

OWB's folder holds `the-old-world-system.json` (armies, their compositions, allies, mercenaries),
`the-old-world/<army>.json` (units by category) and `the-old-world/magic-items.json` (items by group).
Reading checks the shape the importer relies on; any problem is an `OwbInputError` whose message is one
line naming the file and the path inside it.
"""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

SYSTEM_ID = "the-old-world"
SYSTEM_FILE = "the-old-world-system.json"
ARMY_DIR = "the-old-world"
# OWB's own source tree (a checkout of github.com/nthiebes/old-world-builder) keeps the same files elsewhere.
TREE_SYSTEM_FILE = Path("src", "assets", "the-old-world.json")
TREE_ARMY_DIR = Path("public", "games", "the-old-world")
# OWB's trees before 2025-04 keep every game's system in one file: a list of {"id": game, "armies": [...]}.
OLD_TREE_SYSTEM_FILE = Path("src", "assets", "armies.json")
ITEMS_FILE = "magic-items.json"
CATEGORIES = ("characters", "core", "special", "rare", "mercenaries", "allies")
CREDIT = "Old World Builder (old-world-builder.com, github.com/nthiebes/old-world-builder), CC BY 4.0"
# Bump when the importer's output changes for the same OWB data: a version's content never changes.
# (4: item names without OWB's asterisk mark, "Sword of Might*" -> "Sword of Might", issue 42 item 5.)
IMPORTER_REVISION = 4

# OWB's magic item types that are the system's own item categories; every other type (runes, virtues,
# gifts...) becomes an item category of the book that uses it.
SYSTEM_ITEM_TYPES = {
    "weapon": "weapon", "armor": "armour", "talisman": "talisman", "enchanted-item": "enchanted",
    "arcane-item": "arcane", "banner": "standard",
}
UNIT_LISTS = ("command", "equipment", "armor", "options", "mounts", "items")


class OwbInputError(Exception):
    """A file of OWB's data (or a saved list) that cannot be imported; str() is the one line to print."""

    def __init__(self, source: str, path: Iterable[Any], message: str):
        self.source, self.path, self.message = source, tuple(path), message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = format_path(self.path)
        return f"{self.source}: {where + ': ' if where else ''}{self.message}"


def format_path(path: Iterable[Any]) -> str:
    """("core", 3, "points") -> "core[3].points"."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def slug(text: str) -> str:
    """A lowercase id: "Prince Ulther's Dragon Company" -> "prince-ulthers-dragon-company"."""
    text = re.sub(r"['’`]", "", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "x"


def display(name: str) -> str:
    """OWB's English name without its disambiguation braces: "Griffon {empire}" -> "Griffon"."""
    return re.sub(r"\s+", " ", re.sub(r"\{[^}]*\}", "", name)).strip()


def name_of(obj: dict) -> str:
    """The English name, else any other language's (OWB's data has a few choices named only in German)."""
    names = [obj.get("name_en"), obj.get("name")] + [v for k, v in sorted(obj.items()) if k.startswith("name_")]
    return display(next((str(n) for n in names if isinstance(n, str) and n.strip()), ""))


def unmarked(name: str) -> str:
    """An item's name without the asterisk OWB marks some items with ("Sword of Might*" -> "Sword of
    Might"): the mark is OWB's note to itself, not part of the name players read or type (issue 42 item 5)."""
    return re.sub(r"\s*\*+$", "", name).strip()


def item_name(item: dict) -> str:
    """An OWB magic item's name as players know it (`name_of`, its asterisk mark left off)."""
    return unmarked(name_of(item))


def title(slug_id: str) -> str:
    """A readable name for an id OWB names only in its code: "knightly-order-panther" -> "Knightly Order Panther"."""
    words = slug_id.split("-")
    return " ".join(w if 0 < i and w in {"of", "the", "and", "in"} else w.capitalize() for i, w in enumerate(words))


def item_category(owb_type: str) -> str:
    """Our item category for an OWB item type: the system's own, or the type's slug (a book category)."""
    return SYSTEM_ITEM_TYPES.get(owb_type, slug(owb_type))


def compositions_of(value: Any) -> set[str] | None:
    """OWB's `armyComposition` on an option or slot: a string, a list or a mapping of ids; None when absent."""
    if value is None:
        return None
    if isinstance(value, str):
        return {value}
    return set(value)


def english(value: Any) -> str:
    """The English text of OWB's `notes` (a mapping of languages, or a list of them)."""
    if isinstance(value, dict):
        return str(value.get("name_en") or "").strip()
    if isinstance(value, list):
        return "; ".join(english(v) for v in value if english(v))
    return ""


@dataclass
class Dataset:
    """Everything read from one OWB folder."""
    folder: Path
    system: dict
    armies: dict[str, dict]  # army id -> its army file
    items: dict[str, list[dict]]  # item group -> items
    version: str
    system_path: Path | None = None  # where the system file was read (for messages)

    def army(self, army_id: str) -> dict:
        return next(a for a in self.system["armies"] if a["id"] == army_id)

    def group_types(self) -> dict[str, set[str]]:
        return {group: {str(i["type"]) for i in items} for group, items in self.items.items()}


def _read_json(path: Path, display_name: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OwbInputError(display_name, (), "is missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise OwbInputError(display_name, (), f"cannot be read: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise OwbInputError(display_name, (), f"is not valid JSON: {exc.msg} at line {exc.lineno}, "
                                              f"column {exc.colno}") from None


def _expect(ok: bool, source: str, path: tuple, message: str) -> None:
    if not ok:
        raise OwbInputError(source, path, message)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_choice(obj: Any, source: str, path: tuple) -> None:
    _expect(isinstance(obj, dict), source, path, "is not an object")
    _expect(bool(name_of(obj)), source, path + ("name_en",), "is missing (the choice has no name)")
    if "points" in obj:
        _expect(_is_count(obj["points"]), source, path + ("points",), f"is {obj['points']!r}, not a number of points")
    for key in ("options", "types"):
        if key in obj and obj[key] is not None:
            _expect(isinstance(obj[key], list), source, path + (key,), "is not a list")
    for j, sub in enumerate(obj.get("options") or []):
        _check_choice(sub, source, path + ("options", j))


def check_unit(unit: Any, source: str, path: tuple) -> None:
    """The shape of one unit (of an army file, or of a saved list)."""
    _expect(isinstance(unit, dict), source, path, "is not a unit object")
    _expect(isinstance(unit.get("id"), str) and unit["id"], source, path + ("id",), "is missing")
    _expect(isinstance(unit.get("name_en"), str), source, path + ("name_en",), "is missing")
    _expect(_is_count(unit.get("points")), source, path + ("points",),
            f"is {unit.get('points')!r}, not a number of points")
    for key in ("minimum", "maximum"):
        if unit.get(key) is not None:
            _expect(_is_count(unit[key]), source, path + (key,), f"is {unit[key]!r}, not a number of models")
    for key in UNIT_LISTS:
        value = unit.get(key)
        if value is None:
            continue
        _expect(isinstance(value, list), source, path + (key,), "is not a list")
        for j, obj in enumerate(value):
            if key == "items":
                _expect(isinstance(obj, dict) and isinstance(obj.get("types", []), list), source,
                        path + (key, j), "is not an item allowance with a list of types")
                if obj.get("maxPoints") is not None:
                    _expect(_is_count(obj["maxPoints"]), source, path + (key, j, "maxPoints"), "is not a number")
            else:
                _check_choice(obj, source, path + (key, j))
    if unit.get("armyComposition") is not None:
        _expect(isinstance(unit["armyComposition"], dict), source, path + ("armyComposition",), "is not an object")
    if unit.get("lores") is not None:
        _expect(isinstance(unit["lores"], list) and all(isinstance(x, str) for x in unit["lores"]), source,
                path + ("lores",), "is not a list of lore ids")


def layout(folder: Path) -> tuple[Path, Path]:
    """(the system file, the folder of army files): the-old-world-system.json and the-old-world/ in the
    folder (as ../shared/external keeps them), or OWB's source tree as it is (src/assets/the-old-world.json
    and public/games/the-old-world/), or an older tree's (src/assets/armies.json)."""
    if not (folder / SYSTEM_FILE).is_file():
        for system_file in (TREE_SYSTEM_FILE, OLD_TREE_SYSTEM_FILE):
            if (folder / system_file).is_file():
                return folder / system_file, folder / TREE_ARMY_DIR
    return folder / SYSTEM_FILE, folder / ARMY_DIR


def _this_game(system: Any, source: str) -> Any:
    """The Old World's system of an older tree's armies.json (a list of every game OWB builds for); `system`
    as it is when it is no list (the checks after say what is wrong)."""
    if not isinstance(system, list):
        return system
    found = [g for g in system if isinstance(g, dict) and g.get("id") == SYSTEM_ID]
    _expect(bool(found), source, (), f"names no game {SYSTEM_ID!r} (the games it names: "
                                     f"{', '.join(str(g.get('id')) for g in system if isinstance(g, dict)) or 'none'})")
    return found[0]


def _allies(army: dict, source: str, i: int) -> None:
    """An army's allies as objects: older trees write each as the allied army's id only ("empire-of-man"),
    newer ones as {"army": id, "armyComposition": ...}."""
    allies = army.get("allies")
    if allies is None:
        return
    _expect(isinstance(allies, list), source, ("armies", i, "allies"), "is not a list")
    for j, ally in enumerate(allies):
        _expect(isinstance(ally, (str, dict)) and bool(ally), source, ("armies", i, "allies", j),
                "is neither an army id nor an allied army")
    army["allies"] = [{"army": a} if isinstance(a, str) else a for a in allies]


def _git_commit(folder: Path) -> str | None:
    """The commit a git checkout of OWB's tree is at (.git/HEAD, then its branch's ref or packed-refs)."""
    head = folder / ".git" / "HEAD"
    if not head.is_file():
        return None
    text = head.read_text(errors="replace").strip()
    if not text.startswith("ref:"):
        return text if re.fullmatch(r"[0-9a-f]{40}", text) else None
    ref = text[4:].strip()
    if (folder / ".git" / ref).is_file():
        return (folder / ".git" / ref).read_text(errors="replace").strip() or None
    packed = folder / ".git" / "packed-refs"
    found = re.search(rf"^([0-9a-f]{{40}}) {re.escape(ref)}$", packed.read_text(errors="replace"), re.M) \
        if packed.is_file() else None
    return found.group(1) if found else None


def _version(folder: Path, files: list[Path]) -> str:
    """OWB's commit when the folder's NOTE.md names one, or the commit of a git checkout of OWB's tree,
    else a hash of the files read."""
    note = folder / "NOTE.md"
    found = re.search(r"\bcommit\s+([0-9a-f]{7,40})\b", note.read_text(errors="replace")) if note.is_file() else None
    commit = found.group(1) if found else _git_commit(folder)
    if commit:
        stamp = commit[:8]
    else:
        digest = hashlib.sha256()
        for path in files:
            digest.update(path.read_bytes())
        stamp = digest.hexdigest()[:8]
    return f"owb-{stamp}" + (f".r{IMPORTER_REVISION}" if IMPORTER_REVISION > 1 else "")


def read_dataset(folder: Path) -> Dataset:
    """Read and check OWB's folder (the one holding the-old-world-system.json), or OWB's source tree."""
    if not folder.is_dir():
        raise OwbInputError(str(folder), (), "is not a folder")
    system_path, army_dir = layout(folder)
    system_name = str(system_path)
    system = _read_json(system_path, system_name)
    if system_path.name == OLD_TREE_SYSTEM_FILE.name:  # only the older tree's file holds every game
        system = _this_game(system, system_name)
    _expect(isinstance(system, dict) and isinstance(system.get("armies"), list), system_name, ("armies",),
            "is missing (not an Old World Builder system file)")
    _expect(system.get("id") == SYSTEM_ID, system_name, ("id",), f"is {system.get('id')!r}, not {SYSTEM_ID!r}")
    files = [system_path]
    armies: dict[str, dict] = {}
    for i, army in enumerate(system["armies"]):
        _expect(isinstance(army, dict) and isinstance(army.get("id"), str), system_name, ("armies", i, "id"),
                "is missing")
        for key in ("armyComposition", "items"):
            _expect(isinstance(army.get(key, []), list), system_name, ("armies", i, key), "is not a list")
        _allies(army, system_name, i)
        name = str(army_dir / f"{army['id']}.json")
        data = _read_json(army_dir / f"{army['id']}.json", name)
        _expect(isinstance(data, dict), name, (), "is not an army (an object of unit categories)")
        for category, units in data.items():
            _expect(category in CATEGORIES, name, (category,),
                    f"is not a category of The Old World ({', '.join(CATEGORIES)})")
            _expect(isinstance(units, list), name, (category,), "is not a list of units")
            for j, unit in enumerate(units):
                check_unit(unit, name, (category, j))
        armies[army["id"]] = data
        files.append(army_dir / f"{army['id']}.json")
    items_name = str(army_dir / ITEMS_FILE)
    items = _read_json(army_dir / ITEMS_FILE, items_name)
    _expect(isinstance(items, dict), items_name, (), "is not an object of item groups")
    for group, entries in items.items():
        _expect(isinstance(entries, list), items_name, (group,), "is not a list of items")
        for j, item in enumerate(entries):
            path = (group, j)
            _expect(isinstance(item, dict), items_name, path, "is not an item")
            _expect(isinstance(item.get("name_en"), str) and item["name_en"], items_name, path + ("name_en",),
                    "is missing")
            _expect(isinstance(item.get("type"), str) and item["type"], items_name, path + ("type",), "is missing")
            _expect(_is_count(item.get("points")), items_name, path + ("points",),
                    f"is {item.get('points')!r}, not a number of points")
    files.append(army_dir / ITEMS_FILE)
    return Dataset(folder=folder, system=system, armies=armies, items=items, version=_version(folder, files),
                   system_path=system_path)
