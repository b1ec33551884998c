"""The import report's `unchecked` (issue 21 item 6) lists exactly what the tree evaluator, which judges
every imported book's lists, does not evaluate, in its own words; what it computes (a name modifier, a
cost modifier whose conditions depend on the list, an added error, every cost type) is counted checked.
The stored book lists the same (its flattened rules, which once judged its lists, are retired)."""
from __future__ import annotations

from armylists.importers.battlescribe import convert, read_sources
from armylists.importers.battlescribe.plain import plain_document
from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select

from tests.battlescribe.battlescribe_samples import GST, NS_CAT

GST_WITH_PROFILE = GST.replace("</gameSystem>", """  <profileTypes><profileType id="pt-model" name="Model">
    <characteristicTypes><characteristicType id="ct-m" name="M"/></characteristicTypes>
  </profileType></profileTypes>
</gameSystem>""")

# A Captain with one of each: modifiers the evaluator applies (a name's append, a cost increment while
# Knights are taken, an error added without Knights) and three it cannot (a characteristic set on the
# entry, a cost divided, a hidden flag under a condition type it does not know); a constraint on a field
# that is no cost type.
CAT = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-u" name="Unchecked" revision="1" battleScribeVersion="2.03" gameSystemId="sys-1" {NS_CAT}>
  <forceEntries><forceEntry id="force-1" name="Army"><categoryLinks>
    <categoryLink id="cl-1" name="Characters" targetId="cat-char"/></categoryLinks></forceEntry></forceEntries>
  <selectionEntries>
    <selectionEntry id="knights" name="Knights" type="unit">
      <categoryLinks><categoryLink id="k-cat" targetId="cat-core" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts-1" value="10"/></costs>
    </selectionEntry>
    <selectionEntry id="captain" name="Captain" type="model">
      <constraints><constraint id="c-wounds" type="max" field="wounds" scope="parent" value="1"/></constraints>
      <modifiers>
        <modifier type="append" field="name" value="(General)"/>
        <modifier type="increment" field="pts-1" value="5">
          <conditions><condition type="atLeast" field="selections" scope="roster" value="1" childId="knights"/></conditions>
        </modifier>
        <modifier type="add" field="error" value="A Captain leads Knights">
          <conditions><condition type="lessThan" field="selections" scope="roster" value="1" childId="knights"/></conditions>
        </modifier>
        <modifier type="set" field="ct-m" value="9"/>
        <modifier type="divide" field="pts-1" value="2">
          <conditions><condition type="atLeast" field="selections" scope="roster" value="2" childId="knights"/></conditions>
        </modifier>
        <modifier type="set" field="hidden" value="true">
          <conditions><condition type="sometimes" field="selections" scope="roster" value="1" childId="knights"/></conditions>
        </modifier>
      </modifiers>
      <categoryLinks><categoryLink id="c-cat" targetId="cat-char" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts-1" value="50"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def files(tmp_path):
    (tmp_path / "test.gst").write_text(GST_WITH_PROFILE)
    (tmp_path / "unchecked.cat").write_text(CAT)
    return [str(tmp_path)]


def test_the_report_lists_exactly_what_the_tree_evaluator_does_not_evaluate(tmp_path):
    conversion = convert(read_sources(files(tmp_path)))
    figures = conversion.reports[0].figures
    where = "Unchecked > Captain"
    assert figures["unchecked"] == [
        {"kind": "condition type 'sometimes'", "where": where, "count": 1},
        {"kind": "constraint field 'wounds'", "where": where, "count": 1},
        {"kind": "modifier field 'ct-m' (set)", "where": where, "count": 1},
        {"kind": "modifier type 'divide' on a number", "where": where, "count": 1},
    ]
    # 6 modifiers, 3 evaluated: the name's append, the conditional increment, the added error
    assert figures["modifiers"] == {"total": 6, "checked": 3, "display_only": 2}
    assert figures["constraints"] == {"total": 1, "checked": 0}
    # The stored book lists the same, in the same words: its lists are judged by the evaluator alone.
    assert conversion.books[0]["unchecked"] == [f"Not checked, {u['kind']}: {u['where']}" for u in figures["unchecked"]]


def test_what_the_report_counts_checked_the_tree_evaluator_computes(tmp_path):
    """The name after its append, the price with its conditional increment, the added error, where they
    apply; and a roster with the Captain is not called legal, for what the evaluator does not know."""
    game = GameData([plain_document(d) for d in read_sources(files(tmp_path))])
    roster = Roster(game)
    force = add_force(roster, "force-1")
    captain = select(roster, force, "captain")
    alone = evaluate(roster)
    assert captain.state.name == "Captain (General)"
    assert alone.costs["pts-1"] == 50
    assert [e.message for e in alone.errors if e.constraint_id == "error"] == ["A Captain leads Knights"]
    select(roster, force, "knights")
    led = evaluate(roster)
    assert led.costs["pts-1"] == 50 + 5 + 10
    assert [e for e in led.errors if e.constraint_id == "error"] == []
    assert led.legal is None and alone.legal is None
