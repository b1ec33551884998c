"""What converting one army file holds while it runs: `ConverterState`.

army.py's `ArmyConverter` is a `ConverterState`: it walks the army's tree and hands itself, as `conv`, to
the functions of groups.py, prices.py, profiles.py, rarity.py, variants.py and weights.py, which read and
write the fields below. What only the walk itself keeps (the file's data, its pools, the report, the
`leafMaxCost` allowances of a unit...) stays on `ArmyConverter`.
"""
from __future__ import annotations

from armylists.importers.nr_t9a.limits import Alternatives, Limits, RarityRules, norm_ref


class ConverterState:
    """The army's state, set once by `ArmyConverter.__init__` and `convert`, and the unit's, set anew for
    each unit by `ArmyConverter.entry` and filled in as the unit's option nodes are read. Each field says
    what it holds and who writes it; every other module only reads it unless it says otherwise."""

    # -- the army ----------------------------------------------------------------------------------------
    # every army-wide and per-unit limit made so far, and the constructs not understood: every module adds
    # (`add`, `not_understood`), `convert` writes them out as the book's rules (made by `__init__`)
    limits: Limits
    # refs counted otherwise where the army has an option: weights.ref_weights adds, `convert` splits them
    alternatives: Alternatives
    # the rarities and the unit cost cap of the data's rule text of the date (`__init__`; rarity.py reads)
    rarity_rules: RarityRules
    # nr_t9a.yaml's `rarity_max`, a pool item's bound where the rule text gives none (`__init__`)
    rarity_max: dict[str, int]
    # an item of two pools (`shared`) by name -> its loosest rarity (`__init__`, by rarity.shared_loosest)
    shared_max: dict[str, str | None]
    # the id() of every pool item, the Special Items, whose rarity bounds the army (`__init__`)
    pool_items: set[int]
    # nr_t9a.yaml's `categories`: a category ref of the data -> our category (ArmyConverter's class)
    mapped_categories: dict[str, str]
    # a category ref of an army's own category (The Menagerie) -> the system category its units are in
    # (`convert`)
    own_cats: dict[str, str]
    # a ref of an army's own category -> its tag (`convert`; variants.category_override adds a category
    # whose percent an override changes)
    extra_cats: dict[str, str]
    # unit_id -> the node of a unit in a mount category, which a `refopt` brings (`convert`)
    mounts: dict[str, dict]
    # spells.json's Paths by ref: the spells an option offers a choice of (spells.spell_choice)
    paths: dict
    # every ref some unit of the army or some pool item may carry, but the profiles' (`convert`)
    army_refs: set[str]

    # -- the unit being converted ----------------------------------------------------------------------
    # the entry's id, which the unit's tags and limit labels name
    eid: str
    # the entry's own tags: groups.make_group adds a group's "not checked" tag where no option carries it
    entry_tags: list[str]
    # the unit node's refs
    unit_refs: list[str]
    # the numeric "Number" of the unit's size group, priced per model (None: no size group)
    number: dict | None
    # the Number's refs, counted once a model
    size_refs: set[str]
    # the unit's Height (profiles.height_of; None: not known), and by a mount option's tag its mount's
    # (ArmyConverter.option adds)
    unit_height: int | None
    mount_heights: dict[str, int]
    # the entry's options so far: ArmyConverter.option and variants.option_prices append; groups.py and
    # prices.py tag them
    options: list[dict]
    # their ids, each once (ArmyConverter.option, variants.option_prices)
    option_ids: set[str]
    # a ref -> the ids of the options carrying it (ArmyConverter.option)
    by_ref: dict[str, list[str]]
    # a group's id -> the entry's group (groups.make_group)
    groups: dict[str, dict]
    # a group whose bound an override changes -> (its tag, its per-unit limit) (groups.group_bounds)
    bounded_groups: dict[str, tuple[str, dict]]
    # the entry's discounts (prices.group_rules)
    discounts: list[dict]
    # an option's id -> the ids of its variants at other prices (variants.option_prices)
    prices: dict[str, list[str]]
    # (option, its node, its allowance tag) whose conditions are read once all options exist:
    # ArmyConverter.option and variants.option_prices append, ArmyConverter.resolve_conditions reads
    pending: list[tuple[dict, dict, str | None]]
    # the id() of every override already read into something else: groups.py, rarity.py, variants.py and
    # weights.py add, ArmyConverter.resolve_conditions passes over them
    consumed: set[int]
    # (tag, points, condition or None) of the options raising what the unit may cost (rarity.cap_raises)
    raised_caps: list[tuple[str, int, dict | None]]

    def category(self, ref) -> str | None:
        """Our category of a category ref of the data (or of the first of a list of them): nr_t9a.yaml's,
        else the system category of the army's own category it names; None for another."""
        ref = ref[0] if isinstance(ref, list) and ref else ref
        return self.mapped_categories.get(ref) or self.own_cats.get(norm_ref(ref)) if isinstance(ref, str) else None
