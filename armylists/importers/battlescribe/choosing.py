"""Which documents of an import become systems and books, and what a player sees them called.

    kept, skipped = distinct(plain)                  # one document per id; the others skipped, with why
    reason = not_an_army(catalogue, system, index)   # None, or why a catalogue is offered as no army
    name = system_name(system, given, ours)  # "Mordheim (BSData)", "... (imported data, BSData)"

Pure Python, no Django.
"""
from __future__ import annotations

# Where a game system's data says it was published (its authorUrl, its publications' publisherUrl) -> how
# players know that source. Publishers of data, not games: a system's name says whose data a player builds on.
PUBLISHERS = (("newrecruit.eu", "New Recruit"), ("github.com/bsdata", "BSData"))
UNKNOWN_SOURCE = "BattleScribe"


def data_source(system: dict) -> str | None:
    """The publisher a plain game system names (its authorUrl, its publications' publisherUrl), or None."""
    for url in system.get("publisher_urls", ()):
        for host, name in PUBLISHERS:
            if host in (url or "").lower():
                return name
    return None


def system_name(system: dict, given: str | None, ours: str | None) -> str:
    """The imported system's name with its source: the source given at import, else the one its file names,
    else "BattleScribe"; a system that rules_data/battlescribe_systems.yaml maps onto one of ours
    (`ours`: that system's name) is called by our name, marked as imported data."""
    source = given or data_source(system) or UNKNOWN_SOURCE
    if ours:
        return f"{ours} (imported data, {source})"
    return f"{system['name']} ({source})"


def distinct(plain: list[dict]) -> tuple[list[dict], list[dict]]:
    """The documents with the first of each id (of a game system) kept: BattleScribe links catalogues by id, so
    two with one id cannot both be read; the later ones are skipped (`{"source", "name", "reason"}`)."""
    seen: dict[tuple[str, str], dict] = {}
    kept, skipped = [], []
    for doc in plain:
        first = seen.setdefault((doc["kind"], doc["id"], doc.get("game_system") or ""), doc)
        if first is doc:
            kept.append(doc)
            continue
        skipped.append({"source": doc["source"], "name": doc["name"],
                        "reason": f"has the id {doc['id']!r} of {first['source']} ({first['name']}), which is "
                                  f"imported instead: BattleScribe links {doc['kind']}s by id, so only one can be"})
    return kept, skipped


def _categories(node: dict, index: dict[str, dict]) -> set[str]:
    found = set(node.get("categories", []))
    if node["kind"] == "link" and not found and node.get("target") in index:
        found = set(index[node["target"]].get("categories", []))
    return found


def not_an_army(catalogue: dict, system: dict, index: dict[str, dict], by_id: dict[str, dict]) -> str | None:
    """Why a catalogue is offered as no army, else None. A library (library="true") only lends entries. So
    does a catalogue that declares no force of its own, none of whose own root entries is in a category
    that a force of the game system requires (a min constraint above 0), and which cannot fill every such
    category of a force with the root entries it imports (its catalogue links', the game system's): it
    fills only forces taken beside an army (Mordheim's Characters: Hired Swords and Dramatis Personae; its
    imported data.cat gives Configuration, but no Heroes). A game system whose forces require no category
    cannot tell, and every such catalogue stays an army."""
    if catalogue["library"]:
        return 'a library (library="true"): it lends entries to the catalogues that link it'
    if catalogue["forces"]:
        return None
    needs = [{c["target"]: c["name"] for c in f["categories"]
              if any(k["type"] == "min" and k["value"] > 0 for k in c["constraints"])} for f in system["forces"]]
    needs = [n for n in needs if n]
    if not needs:
        return None
    own = set().union(set(), *(_categories(e, index) for e in catalogue["entries"]))
    roots = [*system["entries"]]
    roots += [e for t, imports in catalogue["catalogue_links"] if imports and t in by_id for e in by_id[t]["entries"]]
    held = own.union(*(_categories(e, index) for e in roots))
    # its own entry in a required category (a warband's Heroes, with or without the data.cat that gives
    # its Configuration), or a force filled with the root entries it imports
    if any(own & set(n) or set(n) <= held for n in needs):
        return None
    missing = sorted({name for n in needs for t, name in n.items() if t not in held})
    return (f"no army: it declares no force, and its root entries fill no force of {system['name']}: none is "
            f"in {', '.join(missing)}, which a force requires; it lends entries to forces taken beside an army")
