"""Small BattleScribe files written for the tests (our own, not the community's data): a game system
and a catalogue in schema 2.03, and a legacy 1.15 pair, with the constraints and modifiers the
importer maps."""
from __future__ import annotations

NS_GST = 'xmlns="http://www.battlescribe.net/schema/gameSystemSchema"'
NS_CAT = 'xmlns="http://www.battlescribe.net/schema/catalogueSchema"'

GST = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Test Battles" revision="3" battleScribeVersion="2.03" {NS_GST}>
  <costTypes><costType id="pts-1" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries>
    <categoryEntry id="cat-core" name="Core"/>
    <categoryEntry id="cat-char" name="Characters"/>
  </categoryEntries>
</gameSystem>
"""


def catalogue(revision: int = 7, max_knights: str = "2.0", extra: str = "") -> str:
    """Knights (3-6 models at 20 pts, the unit 10): 0-2 per army, 0 once the points limit is at most 1000,
    +1 per 1000 points; a Captain (Characters, at most 40% of the limit); a Lance option (+2 per model)
    and a Banner that must be taken with a Flag."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Test Knights" revision="{revision}" battleScribeVersion="2.03" gameSystemId="sys-1" {NS_CAT}>
  <forceEntries>
    <forceEntry id="force-1" name="Army">
      <categoryLinks>
        <categoryLink id="cl-1" name="Characters" targetId="cat-char">
          <constraints>
            <constraint id="c-char" type="max" field="limit::pts-1" scope="roster" value="40" percentValue="true"/>
          </constraints>
        </categoryLink>
        <categoryLink id="cl-2" name="Core" targetId="cat-core"/>
      </categoryLinks>
    </forceEntry>
  </forceEntries>
  <selectionEntries>
    <selectionEntry id="knights" name="Knights" type="unit">
      <constraints>
        <constraint id="c-knights" type="max" field="selections" scope="roster" value="{max_knights}"/>
      </constraints>
      <modifiers>
        <modifier type="increment" field="c-knights" value="1">
          <repeats><repeat field="limit::pts-1" scope="roster" value="1000" repeats="1" childId="any"/></repeats>
        </modifier>
        <modifier type="set" field="c-knights" value="0">
          <conditions><condition type="atMost" field="limit::pts-1" scope="roster" value="1000" childId="any"/></conditions>
        </modifier>
      </modifiers>
      <categoryLinks><categoryLink id="k-cat" targetId="cat-core" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts-1" value="10"/></costs>
      <selectionEntries>
        <selectionEntry id="knight" name="Knight" type="model">
          <constraints>
            <constraint id="c-k-min" type="min" field="selections" scope="parent" value="3"/>
            <constraint id="c-k-max" type="max" field="selections" scope="parent" value="6"/>
          </constraints>
          <profiles><profile id="p-1" name="Knight" typeName="Model">
            <characteristics><characteristic name="M">8</characteristic><characteristic name="Ld">8</characteristic></characteristics>
          </profile></profiles>
          <costs><cost name="pts" typeId="pts-1" value="20"/></costs>
        </selectionEntry>
        <selectionEntry id="lance" name="Lance" type="upgrade">
          <constraints><constraint id="c-lance" type="max" field="selections" scope="parent" value="1"/></constraints>
          <modifiers>
            <modifier type="increment" field="pts-1" value="2">
              <repeats><repeat field="selections" scope="parent" value="1" repeats="1" childId="model"/></repeats>
            </modifier>
          </modifiers>
        </selectionEntry>
        <selectionEntry id="flag" name="Flag" type="upgrade">
          <constraints><constraint id="c-flag" type="max" field="selections" scope="parent" value="1"/></constraints>
          <costs><cost name="pts" typeId="pts-1" value="5"/></costs>
        </selectionEntry>
      </selectionEntries>
      <selectionEntryGroups>
        <selectionEntryGroup id="banners" name="Banners">
          <modifiers>
            <modifier type="set" field="hidden" value="true">
              <conditions><condition type="equalTo" field="selections" scope="parent" value="0" childId="flag"/></conditions>
            </modifier>
          </modifiers>
          <constraints><constraint id="c-banners" type="max" field="selections" scope="parent" value="1"/></constraints>
          <selectionEntries>
            <selectionEntry id="banner" name="Banner of Speed" type="upgrade">
              <costs><cost name="pts" typeId="pts-1" value="25"/></costs>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry id="captain" name="Captain" type="model">
      <categoryLinks><categoryLink id="c-cat" targetId="cat-char" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts-1" value="100"/></costs>
      <modifiers><modifier type="append" field="name" value="(General)"/></modifiers>
    </selectionEntry>{extra}
  </selectionEntries>
</catalogue>
"""


LEGACY_GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="old-sys" name="Old Battles" revision="1" battleScribeVersion="1.15" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <forceTypes>
    <forceType id="std" name="Standard">
      <categories>
        <category id="lords" name="Lords" minSelections="0" maxSelections="-1" minPoints="0.0" maxPoints="-1.0" minPercentage="0" maxPercentage="35"/>
        <category id="core" name="Core" minSelections="0" maxSelections="-1" minPoints="0.0" maxPoints="-1.0" minPercentage="25" maxPercentage="-1"/>
      </categories>
    </forceType>
  </forceTypes>
</gameSystem>
"""

LEGACY_CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="old-cat" name="Old Guard" revision="4" battleScribeVersion="1.15" gameSystemId="old-sys" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <entries>
    <entry id="guards" name="Guards" points="0.0" categoryId="core" type="unit" minSelections="0" maxSelections="-1" minInForce="0" maxInForce="-1" minInRoster="0" maxInRoster="2" minPoints="0.0" maxPoints="-1.0">
      <entries>
        <entry id="guard" name="Guard" points="10.0" categoryId="(No Category)" type="upgrade" minSelections="5" maxSelections="20" minInForce="0" maxInForce="-1" minInRoster="0" maxInRoster="-1" minPoints="0.0" maxPoints="-1.0"/>
        <entry id="spears" name="Spears" points="0.0" categoryId="(No Category)" type="upgrade" minSelections="0" maxSelections="1" minInForce="0" maxInForce="-1" minInRoster="0" maxInRoster="-1" minPoints="0.0" maxPoints="-1.0">
          <modifiers>
            <modifier type="increment" field="points" value="1.0" repeat="true" numRepeats="1" incrementParentId="guards" incrementChildId="guard" incrementField="selections" incrementValue="1.0"/>
          </modifiers>
        </entry>
      </entries>
      <modifiers>
        <modifier type="increment" field="maxInRoster" value="1.0" repeat="false" numRepeats="1" incrementParentId="roster" incrementChildId="no child" incrementField="selections" incrementValue="1.0">
          <conditions><condition parentId="roster" childId="no child" field="points limit" type="at least" value="3000.0"/></conditions>
        </modifier>
      </modifiers>
    </entry>
    <entry id="lord" name="Lord" points="150.0" categoryId="lords" type="model" minSelections="0" maxSelections="-1" minInForce="0" maxInForce="-1" minInRoster="0" maxInRoster="1" minPoints="0.0" maxPoints="-1.0"/>
  </entries>
</catalogue>
"""
