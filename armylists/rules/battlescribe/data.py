"""A game system and its catalogues, indexed: what an id means, and what may be selected where.

The documents are the plain dicts of `importers/battlescribe/plain.py` (schema 2.x). An entry link is
resolved where BattleScribe resolves it: the catalogue's own shared entries first, then the game
system's, then the catalogues it links, then any other. What may be selected under a selection (or at
the root of a force) is its entries, the members of its groups (nested), and what its links reach; each
such `Option` carries the ids BattleScribe gives the selection (docs/entry-id-construction.md of the
battlescribe-spec suite): every link on the way prepends its id with `::`, groups add nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property


LEGACY_POINTS = ("points", "pts")   # the ids of a legacy (1.x) document's one cost type, new and old


class GameDataError(Exception):
    """The data cannot be evaluated: no game system, a link to nothing, an unknown force entry."""


@dataclass(frozen=True)
class GroupStep:
    """A group an option is reached through: the group, its composite id, the link that reached it."""
    node: dict
    group_id: str
    link: dict | None


@dataclass(frozen=True)
class Option:
    """Something selectable in a container: a selection entry as reached through links and groups."""
    entry: dict
    link: dict | None
    entry_id: str
    groups: tuple[GroupStep, ...]
    prefix: tuple[str, ...]
    doc: str = field(compare=False)

    @cached_property
    def sources(self) -> tuple[dict, ...]:
        """The nodes whose costs, constraints, modifiers and categories apply: the target, then the link."""
        return (self.entry,) if self.link is None else (self.entry, self.link)

    @cached_property
    def group_nodes(self) -> tuple[dict, ...]:
        """The groups (and group links) the option sits in, outermost first."""
        return tuple(n for step in self.groups for n in (step.node, step.link) if n is not None)

    @cached_property
    def group_node_ids(self) -> frozenset[str]:
        """The own ids of the groups it sits in (a group limit that can only cap is judged where one of
        them holds a selection: validation.py asks it of every selection)."""
        return frozenset(g.node["id"] for g in self.groups)

    @property
    def group_id(self) -> str | None:
        return self.groups[-1].group_id if self.groups else None

    @cached_property
    def ids(self) -> frozenset[str]:
        """Every id a condition's `childId` may name this option by (shared counting)."""
        found = {self.entry["id"], self.entry_id}
        if self.entry.get("type"):
            found.add(self.entry["type"])      # instanceOf "unit", "model", "upgrade": the entry's type
        if self.link is not None:
            found.add(self.link["id"])
        for step in self.groups:
            found.add(step.node["id"])
            if step.link is not None:
                found.add(step.link["id"])
        return frozenset(found)

    @cached_property
    def own_ids(self) -> frozenset[str]:
        """The ids an unshared count names this option by: the way it was reached, and its groups'."""
        return frozenset({self.entry_id} | {g.group_id for g in self.groups})

    @cached_property
    def match_keys(self) -> tuple[tuple[str, str], ...]:
        """What a constraint may match this option by that the roster does not change (queries.Match):
        its entry's id, its composite id, its groups' ids and composite ids; each once."""
        keys = {("entry", self.entry["id"]), ("composite", self.entry_id)}
        for step in self.groups:
            keys.add(("group", step.node["id"]))
            keys.add(("group_id", step.group_id))
        return tuple(keys)


def limited_categories(documents: list[dict]) -> list[dict]:
    """The category entries with constraints of these documents (nearest first), each id once: the first."""
    found: dict[str, dict] = {}
    for doc in documents:
        for category in doc.get("category_entries", []):
            found.setdefault(category["id"], category)
    return [c for c in found.values() if c.get("constraints")]


class GameData:
    """The game system and catalogues by id; cost types, categories, force entries and options."""

    def __init__(self, documents: list[dict]):
        systems = [d for d in documents if d.get("kind") == "system"]
        if len(systems) != 1:
            raise GameDataError(f"expected one game system, got {len(systems)}")
        self.system = systems[0]
        self.catalogues = {d["id"]: d for d in documents if d.get("kind") == "catalogue"}
        self.docs = {self.system["id"]: self.system, **self.catalogues}
        self.doc_of: dict[int, str] = {}
        self.by_id: dict[str, list[tuple[str, dict]]] = {}
        for doc_id, doc in self.docs.items():
            for node in list(doc.get("entries", [])) + list(doc.get("shared", {}).values()):
                self._index(node, doc_id)
        self._options: dict[tuple, list] = {}     # what may be selected where, expanded once
        # What the evaluator derives from the data and keeps with it, by kind (plans.py, effective.py,
        # queries.py, compiled.py): each entry's plan, modifiers and gates, made once per game data.
        self.memo: dict[str, dict] = {}
        self.cost_types: list[dict] = []
        self.categories: dict[str, dict] = {}
        self.forces: dict[str, tuple[dict, str]] = {}
        for doc_id, doc in self.docs.items():
            for cost in doc.get("cost_type_list", []):
                if all(c["id"] != cost["id"] for c in self.cost_types):
                    self.cost_types.append(cost)
            for category in doc.get("category_entries", []):
                self.categories.setdefault(category["id"], category)
            self._index_forces(doc.get("forces", []), doc_id)
        self._undeclared_cost_types()
        # Legacy (1.x) data's points: BattleScribe's `points` (importers/battlescribe/legacy.py), which data
        # read before called `pts`; a roster of either names it by either id.
        declared = {c["id"] for c in self.cost_types}
        self._cost_aliases = {alias: cost["id"] for doc in self.docs.values()
                              if str(doc.get("schema", "")).startswith(("0.", "1."))
                              for cost in doc.get("cost_type_list", []) if cost["id"] in LEGACY_POINTS
                              for alias in LEGACY_POINTS if alias not in declared}

    def _undeclared_cost_types(self) -> None:
        """A cost type that entries use but no document declares is read all the same, named by its id
        (a catalogue naming a type its game system lacks): dropping it would
        make every entry cost 0."""
        declared = {c["id"] for c in self.cost_types}
        for found in self.by_id.values():
            for _doc, node in found:
                for type_id in node.get("costs", {}):
                    if type_id not in declared:
                        declared.add(type_id)
                        self.cost_types.append({"id": type_id, "name": type_id, "undeclared": True})

    def _index(self, node: dict, doc_id: str) -> None:
        self.doc_of[id(node)] = doc_id
        self.by_id.setdefault(node["id"], []).append((doc_id, node))
        for child in node.get("children", []):
            self._index(child, doc_id)

    def _index_forces(self, forces: list[dict], doc_id: str) -> None:
        for force in forces:
            self.forces.setdefault(force["id"], (force, doc_id))
            self._index_forces(force.get("forces", []), doc_id)

    # ids

    def linked_docs(self, doc_id: str) -> list[str]:
        """The documents a catalogue sees: itself, the game system, the catalogues it links (nested)."""
        seen = [doc_id]
        queue = [doc_id]
        while queue:
            doc = self.docs.get(queue.pop(0), {})
            for target, _import_root in doc.get("catalogue_links", []):
                if target in self.docs and target not in seen:
                    seen.append(target)
                    queue.append(target)
        if self.system["id"] not in seen:
            seen.insert(1, self.system["id"])
        return seen

    def resolve(self, target: str, doc_id: str) -> dict:
        """The shared entry or group an entry link names, looked up as BattleScribe does."""
        found = self.by_id.get(target, [])
        for doc in self.linked_docs(doc_id):
            for where, node in found:
                if where == doc and node.get("kind") != "link":
                    return node
        for _where, node in found:
            if node.get("kind") != "link":
                return node
        raise GameDataError(f"entry link to {target!r}, which is no selection entry or group")

    def name_of(self, any_id: str) -> str:
        """A name for an id in a message: an entry, a group, a category or a force entry."""
        for _doc, node in self.by_id.get(any_id, []):
            if node.get("name"):
                return node["name"]
        if any_id in self.categories:
            return self.categories[any_id].get("name", any_id)
        if any_id in self.forces:
            return self.forces[any_id][0].get("name", any_id)
        return any_id

    @cached_property
    def cost_type_ids(self) -> frozenset[str]:
        """The ids of the cost types (read after the documents are indexed; they do not change after)."""
        return frozenset(c["id"] for c in self.cost_types)

    @cached_property
    def characteristic_names(self) -> dict[str, str]:
        """Each characteristic type's name by its id (a profile modifier's `field`), from every document."""
        found: dict[str, str] = {}
        for doc in self.docs.values():
            for type_id, name in doc.get("characteristic_types", {}).items():
                found.setdefault(type_id, name)
        return found

    def cost_type_id(self, type_id: str) -> str | None:
        """The data's cost type that a roster's `typeId` names, or None where the data has no such type."""
        if any(c["id"] == type_id for c in self.cost_types):
            return type_id
        return self._cost_aliases.get(type_id)

    def cost_type_name(self, type_id: str) -> str:
        return next((c["name"] for c in self.cost_types if c["id"] == type_id), type_id)

    def category_entries(self, catalogue_id: str) -> list[dict]:
        """The category entries with constraints that a force of this catalogue sees: those of the
        catalogue, its game system and the catalogues it links (nested), each id once, the nearest
        document's first (as an entry link is resolved)."""
        key = ("categories", catalogue_id)
        if key not in self._options:
            self._options[key] = limited_categories([self.docs[d] for d in self.linked_docs(catalogue_id)
                                                     if d in self.docs])
        return self._options[key]

    # what may be selected

    def root_nodes(self, catalogue_id: str) -> list[tuple[dict, str]]:
        """The root entries and links a force of this catalogue offers (with the document of each)."""
        docs = [self.system["id"], catalogue_id] if catalogue_id != self.system["id"] else [catalogue_id]
        for target, import_root in self.docs.get(catalogue_id, {}).get("catalogue_links", []):
            if import_root and target in self.docs and target not in docs:
                docs.append(target)
        return [(node, doc) for doc in docs for node in self.docs[doc].get("entries", [])]

    def root_options(self, catalogue_id: str) -> list[Option]:
        key = ("root", catalogue_id)
        if key not in self._options:
            self._options[key] = [o for node, doc in self.root_nodes(catalogue_id)
                                  for o in self._expand([node], (), (), doc)]
        return self._options[key]

    def child_options(self, option: Option) -> list[Option]:
        """What may be selected under a selection of `option`: its entry's children and its link's."""
        key = ("children", id(option.entry), id(option.link), option.prefix)
        if key not in self._options:
            self._options[key] = self._child_options(option)
        return self._options[key]

    def _child_options(self, option: Option) -> list[Option]:
        nodes = list(option.entry.get("children", []))
        doc = self.doc_of.get(id(option.entry), option.doc)
        out = self._expand(nodes, option.prefix, (), doc)
        if option.link is not None:
            link_doc = self.doc_of.get(id(option.link), option.doc)
            out += self._expand(option.link.get("children", []), option.prefix, (), link_doc)
        return out

    def _expand(self, nodes: list[dict], prefix: tuple[str, ...], groups: tuple[GroupStep, ...],
                doc: str) -> list[Option]:
        out: list[Option] = []
        for node in nodes:
            kind = node.get("kind")
            if kind == "entry":
                out.append(Option(node, None, "::".join(prefix + (node["id"],)), groups, prefix, doc))
            elif kind == "group":
                step = GroupStep(node, "::".join(prefix + (node["id"],)), None)
                out += self._expand(node.get("children", []), prefix, groups + (step,), doc)
            elif kind == "link":
                target = self.resolve(node["target"], doc)
                target_doc = self.doc_of.get(id(target), doc)
                inner = prefix + (node["id"],)
                if target.get("kind") == "group":
                    step = GroupStep(target, "::".join(inner + (target["id"],)), node)
                    out += self._expand(target.get("children", []) + node.get("children", []), inner,
                                        groups + (step,), target_doc)
                else:
                    out.append(Option(target, node, "::".join(inner + (target["id"],)), groups, inner, doc))
        return out

    def groups_of(self, nodes_doc: list[tuple[dict, str]], prefix: tuple[str, ...]) -> list[GroupStep]:
        """Every group (with its composite id) under these nodes, for the groups' own constraints."""
        out: list[GroupStep] = []
        for node, doc in nodes_doc:
            kind = node.get("kind")
            if kind == "group":
                out.append(GroupStep(node, "::".join(prefix + (node["id"],)), None))
                out += self.groups_of([(c, doc) for c in node.get("children", [])], prefix)
            elif kind == "link":
                target = self.resolve(node["target"], doc)
                if target.get("kind") == "group":
                    inner = prefix + (node["id"],)
                    out.append(GroupStep(target, "::".join(inner + (target["id"],)), node))
                    out += self.groups_of([(c, doc) for c in target.get("children", [])], inner)
        return out

    def child_groups(self, option: Option) -> list[GroupStep]:
        key = ("groups", id(option.entry), id(option.link), option.prefix)
        if key not in self._options:
            self._options[key] = self._child_groups(option)
        return self._options[key]

    def _child_groups(self, option: Option) -> list[GroupStep]:
        doc = self.doc_of.get(id(option.entry), option.doc)
        found = self.groups_of([(c, doc) for c in option.entry.get("children", [])], option.prefix)
        if option.link is not None:
            found += self.groups_of([(c, doc) for c in option.link.get("children", [])], option.prefix)
        return found

    def root_groups(self, catalogue_id: str) -> list[GroupStep]:
        key = ("root groups", catalogue_id)
        if key not in self._options:
            self._options[key] = self.groups_of(self.root_nodes(catalogue_id), ())
        return self._options[key]
