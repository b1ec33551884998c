"""The one seam between the two kinds of list: a list of one of our own books, judged and edited by
the native engine, or a roster tree of BattleScribe / New Recruit data, judged and edited by the tree
evaluator (lists/trees/tree_lists.py).

The kind is decided here and nowhere else outside the store and the engine:

    kind_of(roster)      -> the kind of a list document being opened (stored, uploaded, sent)
    kind_for_book(book)  -> the kind a new list of `book` is made as

and the object answers for the list: its report (with an event's rules), a new list, a unit added,
removed, duplicated or changed, the army our event rules read, what the printer needs, the other
tools' files it is written as. Pages, the API, events, exports and commands ask it, never the kind;
where the pages need builders of their own per kind (the editor's cards and forms), they key one
registry by `kind.name`.
"""
from __future__ import annotations

import difflib
from typing import Any, Mapping

from armylists.lists.saved import edits
from armylists.lists.saved.card_states import native_cards
from armylists.lists.saved.edits import EditError
from armylists.lists.trees import tree_coverage, tree_lists
from armylists.lists.trees.tree_changes import tree_cards
from armylists.lists.trees.unflatten import kept_flattened
from armylists.rules import Book, Report, Roster, Rule, validate
from armylists.rules.battlescribe import Roster as TreeRoster
from armylists.rules.battlescribe.sheet import TreePrinting
from armylists.rules.event_rules.ruleset import Ruleset, check_list
from armylists.rules.native.army import Army
from armylists.rules.native.mordheim_campaign import trees as campaign_trees
from armylists.rules.native.mordheim_campaign.tables import campaign_tables
from armylists.rules.reading.roster import parse_roster, roster_to_dict, unit_to_dict
from armylists.rules.reading.selection_tree import tree_to_list


class ListKind:
    """What every door asks of a list, whatever its kind. Subclasses answer each; `name` keys the
    registries of the parts that need a builder of their own per kind (editor/kind_pages.py)."""

    name = ""
    has_compositions = True  # chooses one of its book's compositions (a tree's forces say what the army is)
    takes_allies = True  # an allied contingent of another book is judged with it (the report's `allies`)
    checked_by_its_data = False  # judged by the book data's own rules (the book page says what it skips)
    writes: frozenset[str] = frozenset()  # the other tools' files it is written as (their writers ask)

    # --- opening ---
    def open(self, roster: Roster, source: str = "list") -> None:
        """Raise ListDocumentError if what judging the list needs besides its book is missing."""

    def take(self, book: Book, roster: Roster, source: str = "list") -> Roster:
        """A document sent for a list of `book` (this being the book's kind), in this kind's shape."""
        return roster

    # --- judging ---
    def report(self, book: Book, roster: Roster, extra_rules: tuple[Rule, ...] = (), allies: Book | None = None,
               source: str = "list") -> Report:
        raise NotImplementedError

    def event_report(self, ruleset: Ruleset, book: Book, roster: Roster, allies: Book | None = None) -> Report:
        """The list's Report at an event: its book's rules, the event's settings and its own rules."""
        raise NotImplementedError

    def army(self, book: Book, roster: Roster, report: Report, allies: Book | None = None,
             source: str = "list") -> Army:
        """The list as our event rules read an army; `report` is its own (`report`)."""
        raise NotImplementedError

    # --- editing ---
    def start(self, book: Book, name: str, points_limit: int, composition: str | None = None) -> Roster:
        raise NotImplementedError

    def add_unit(self, book: Book, roster: Roster, wanted: str, *, allied: bool = False,
                 size: int | None = None) -> tuple[Roster, str]:
        """A unit of the entry `wanted` (its id, else its exact name) added; the list and the unit's id.
        An unknown entry is an EditError naming the closest one."""
        raise NotImplementedError

    def remove_unit(self, roster: Roster, unit_id: str) -> Roster:
        raise NotImplementedError

    def duplicate_unit(self, roster: Roster, unit_id: str) -> tuple[Roster, str]:
        """A copy of the unit just after it; the list and the copy's id."""
        raise NotImplementedError

    def update_unit(self, book: Book, roster: Roster, unit_id: str, changes: Mapping[Any, Any]) -> Roster:
        """A unit's options set as its form says (UnitForm.changes(), TreeUnitForm.counts())."""
        raise NotImplementedError

    # --- reading ---
    def units(self, roster: Roster) -> list[Any]:
        """The list's units in order: our RosterUnits, or a tree's root selections (of every force)."""
        raise NotImplementedError

    def unit_count(self, roster: Roster) -> int:
        return len(self.units(roster))

    def unit_of(self, roster: Roster, unit_id: str) -> Any | None:
        return next((u for u in self.units(roster) if u.id == unit_id), None)

    def unit_document(self, roster: Roster, unit_id: str) -> dict[str, Any]:
        """The unit as the list document holds it (the API's answer to a unit added)."""
        raise NotImplementedError

    def cards(self, roster: Roster, report: Report, book: Book | None = None) -> tuple[tuple, dict[str, tuple]]:
        """What every unit card depends on, and what each shows by unit id (the editor answers an edit with
        the cards that changed, editor/changes.py)."""
        raise NotImplementedError

    # --- printing and files ---
    def print_variant(self, book: Book, roster: Roster) -> str:
        """The sheet a list of this kind prints first: its game system's own (Mordheim's warband sheet)."""
        return book.system.print_variant

    def printing(self, roster: Roster) -> TreePrinting | None:
        """What the PDF needs besides the Report (exports/pdf.py: render_pdf's `tree`)."""
        return None

    def plays(self, book: Book, roster: Roster) -> str:
        """The id of our system whose game the list is (the other tools' files of one game ask it)."""
        return book.system.id

    def roster_tree(self, roster: Roster, source: str = "list") -> TreeRoster | None:
        """The evaluator's roster of the list, to read (a .ros is written from it); None if it has none."""
        return None

    def not_evaluated(self, book: Book) -> list[str]:
        """What the check of this kind's lists of `book` does not evaluate (the book's page)."""
        return []

    def army_rules(self, book: Book, roster: Roster) -> list[dict[str, Any]]:
        """The army's own rules, said once on the army rather than on a unit (the editor shows them under the
        list's header, names first, each text folded open on demand): [{name, text}]. A roster tree's
        would be its catalogue's own rules and rule links; its game data keeps none apart from the rules its
        entries link (importers/battlescribe/plain.py reads both into one table), so it names none yet."""
        return []

    # --- a Mordheim campaign (issue 41) ---
    def campaign_warband(self, book: Book, roster: Roster) -> campaign_trees.Projection | None:
        """The list as the post-battle sequence reads a warband of one of our books (its document in our
        shape, mordheim_campaign/trees.py); None when it is no warband the campaign knows."""
        return None

    def not_a_warband(self, book: Book, roster: Roster) -> str:
        """Why the list records no battles, in a player's words."""
        return (f"Battles are recorded for Mordheim warbands of our books; {book.name} is not one the campaign tables "
                f"know.")

    def campaign_settled(self, book: Book, roster: Roster, warband: campaign_trees.Projection,
                         outcome: Mapping[str, Any], log: list[str]) -> tuple[Roster, list[str]]:
        """The list after a battle whose `outcome` is `warband`'s document after it; the log as it names
        the warriors now."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<ListKind {self.name}>"


class NativeKind(ListKind):
    """A list of one of our books (ours, or converted from OWB's and New Recruit's T9A data): the native
    engine (rules/native/) and the pure edits (lists/saved/edits.py)."""

    name = "native"
    writes = frozenset({"owb"})  # Old World Builder's list, of a book of The Old World (exports/owb_list.py)

    def report(self, book, roster, extra_rules=(), allies=None, source="list"):
        report = validate(book, roster, extra_rules, allies=allies)
        if tree_lists.is_battlescribe_book(book):   # a list unflatten.py could not place: never legal on a guess
            return kept_flattened(report, book)
        return report

    def event_report(self, ruleset, book, roster, allies=None):
        report = check_list(ruleset, book, roster, allies)
        return kept_flattened(report, book) if tree_lists.is_battlescribe_book(book) else report

    def army(self, book, roster, report, allies=None, source="list"):
        return Army(book, roster, allies)

    def start(self, book, name, points_limit, composition=None):
        return edits.start_roster(book, name, points_limit, composition)

    def add_unit(self, book, roster, wanted, *, allied=False, size=None):
        roster, unit_id = edits.add_unit(book, roster, native_entry(book, wanted), allied=allied)
        if size is not None:
            roster = edits.set_size(roster, unit_id, size)
        return roster, unit_id

    def remove_unit(self, roster, unit_id):
        return edits.remove_unit(roster, unit_id)

    def duplicate_unit(self, roster, unit_id):
        return edits.duplicate_unit(roster, unit_id)

    def update_unit(self, book, roster, unit_id, changes):
        return edits.update_unit(book, roster, unit_id, changes)

    def units(self, roster):
        return list(roster.units)

    def cards(self, roster, report, book=None):
        return native_cards(roster, report, book)

    def unit_count(self, roster):
        return len(roster.units)

    def unit_document(self, roster, unit_id):
        return unit_to_dict(edits.get_unit(roster, unit_id))

    def campaign_warband(self, book, roster):
        if not campaign_tables().has_warband(book.id):
            return None
        names = {u.id: book.entries[u.entry].name for u in roster.units if u.entry in book.entries}
        return campaign_trees.Projection(book.id, book.version, book.name, roster_to_dict(roster), names, {})

    def campaign_settled(self, book, roster, warband, outcome, log):
        return parse_roster(outcome, "battle"), log  # the sequence changed our document itself

    def army_rules(self, book, roster):
        # Our books' `special_rules` are the army's (rules_data/<system>/books/*.yaml); an imported book's are
        # the texts of the rules its units name (New Recruit's ruledefs.json), shown on those units' cards.
        if book.imported:
            return []
        return [{"name": r["name"], "text": r.get("text", "")}
                for r in book.data.get("special_rules", ()) if isinstance(r, dict) and r.get("name")]


def native_entry(book: Book, wanted: str) -> str:
    """The id of `book`'s entry `wanted` (an id, else an exact name); an EditError naming the closest."""
    if wanted in book.entries:
        return wanted
    named = [e.id for e in book.entries.values() if e.name == wanted]
    if named:
        return named[0]
    names = {e.name: e.id for e in book.entries.values()}
    close = difflib.get_close_matches(wanted, list(names) + list(book.entries), n=1, cutoff=0.0)
    hint = f"; the closest is {close[0]!r} ({names.get(close[0], close[0])})" if close else ""
    raise EditError(f"{book.name} {book.version} has no entry {wanted!r}{hint}.", "entry")


class TreeKind(ListKind):
    """A roster tree of an imported BattleScribe book (docs/list-format.md): the tree evaluator over the
    book's stored game data, and its actions (lists/trees/tree_lists.py). Our system's rules reach it
    through the mapping tree_lists names; our event rules read its projection (`army`)."""

    name = "tree"
    has_compositions = False
    takes_allies = False
    checked_by_its_data = True
    writes = frozenset({"ros", "rosz", "owb"})  # OWB's list of its units that map to a book (exports/owb_tree.py)

    def open(self, roster, source="list"):
        tree_lists.game_for(roster, source)  # its book's stored game data must be there to judge it

    def take(self, book, roster, source="list"):
        return tree_lists.as_tree(book, roster, source)

    def report(self, book, roster, extra_rules=(), allies=None, source="list"):
        # Our rules (`extra_rules`) do not read a tree; an event's own rules read its army (event_report).
        return tree_lists.tree_validate(roster, source)

    def event_report(self, ruleset, book, roster, allies=None):
        return check_list(ruleset, book, roster, allies, tree_lists.tree_validate, tree_lists.tree_army_of)

    def army(self, book, roster, report, allies=None, source="list"):
        return tree_lists.tree_army_of(book, roster, report, source)

    def start(self, book, name, points_limit, composition=None):
        return tree_lists.start_tree(book, name, points_limit)

    def add_unit(self, book, roster, wanted, *, allied=False, size=None):
        # a root selection, with what its minimums and defaults select
        return tree_lists.add_root_selection(roster, wanted, size=size)

    def remove_unit(self, roster, unit_id):
        return tree_lists.remove_selection(roster, unit_id)

    def duplicate_unit(self, roster, unit_id):
        return tree_lists.duplicate_selection(roster, unit_id)

    def update_unit(self, book, roster, unit_id, changes):
        return tree_lists.set_children(roster, dict(changes))

    def cards(self, roster, report, book=None):
        return tree_cards(roster, report)

    def units(self, roster):
        return [s for top in roster.forces or () for f in top.walk_forces() for s in f.selections]

    def unit_document(self, roster, unit_id):
        for force in tree_to_list(roster.forces or ()):
            for force_id, selection in _root_selections(force):
                if selection["id"] == unit_id:
                    return {"force": force_id, **selection}
        raise EditError(f"The list has no selection {unit_id!r}.", "unit")

    def print_variant(self, book, roster):
        # The imported game system carries no sheet of ours; the system we map its game onto does
        # (BSData's Mordheim: the warband sheet, issue 40 item 5).
        return tree_lists.our_print_variant(roster) or book.system.print_variant

    def printing(self, roster):
        return tree_lists.tree_printing(roster)

    def plays(self, book, roster):
        return tree_lists.our_system(roster) or book.system.id

    def roster_tree(self, roster, source="list"):
        return tree_lists.evaluator(roster, source)

    def not_evaluated(self, book):
        return tree_coverage.not_evaluated(book)

    def campaign_warband(self, book, roster):
        document = roster_to_dict(roster)
        if campaign_trees.catalogue_of(document) is None:  # no warband of ours: the tree is not evaluated for it
            return None
        # the tree's names of its selections (the document keeps ids only), for the page's words
        names = {s.uid: s.state.name for s in tree_lists.evaluated(roster).all_selections()}
        return campaign_trees.project(document, names)

    def not_a_warband(self, book, roster):
        return campaign_trees.unmapped_reason(roster_to_dict(roster))

    def campaign_settled(self, book, roster, warband, outcome, log):
        # The battle told back as tree edits, BattleScribe's own (lists/trees/tree_lists.py): the fallen
        # removed, a group's model number set, a lad split off his group as a copy of it of one model.
        settled = campaign_trees.settle(warband, outcome)
        state = settled.state
        for lad, group in settled.lads.items():
            roster, twin = tree_lists.duplicate_selection(roster, group)
            roster = tree_lists.set_children(roster, {(twin, warband.models_entry[group]): 1})
            state, log = campaign_trees.renamed(state, log, lad, twin)
        for uid, size in settled.sizes.items():
            roster = tree_lists.set_children(roster, {(uid, warband.models_entry[uid]): size})
        for uid in settled.removed:
            roster = tree_lists.remove_selection(roster, uid)
        document = roster_to_dict(roster)
        document["campaign"] = state
        return parse_roster(document, "battle"), log


def _root_selections(force: dict):
    for selection in force["selections"]:
        yield force["id"], selection
    for child in force.get("forces", ()):
        yield from _root_selections(child)


NATIVE = NativeKind()
TREE = TreeKind()
KINDS = {kind.name: kind for kind in (NATIVE, TREE)}


def kind_of(roster: Roster) -> ListKind:
    """The kind of a list document: a tree keeps `forces` (an imported book's list stored before in our
    flattened shape stays native, docs/import-battlescribe.md)."""
    return TREE if roster.is_tree else NATIVE


def kind_for_book(book: Book) -> ListKind:
    """The kind a new list of `book` is: a tree for an imported BattleScribe book whose game data is stored."""
    return TREE if tree_lists.is_tree_book(book) else NATIVE
