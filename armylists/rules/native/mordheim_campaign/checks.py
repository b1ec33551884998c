"""The rule type `campaign_state`: a Mordheim warband's campaign state judged like any rule.

Each finding is a Violation with a stable code, the numbers, and the table it comes from:
- campaign.advance_not_earned: more advances than the experience track gives (or one taken at a mark
  the warrior has not reached); campaign.advance_not_taken (warning): fewer than it gives.
- campaign.over_race_maximum: a hero's characteristic past its race's maximum by advances.
- campaign.henchman_gain_cap: a henchman group raised more than the cap over its starting profile.
- campaign.skill_not_allowed: a skill from no list the hero may use.
- campaign.too_many_heroes: heroes made from henchmen take the warband past its limit of heroes.
- campaign.experience_mismatch: a warrior's experience is not its start plus what the battles gave.
- campaign.no_experience: a warrior that never gains experience (animals, Zombies) has some.
- campaign.overspent, campaign.treasury_mismatch: gold spent that the treasury did not hold, and a
  treasury that is not what the founding and the battles leave.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Mapping

from armylists.rules.checks.registry import check
from armylists.rules.native.mordheim_campaign import state as st
from armylists.rules.native.mordheim_campaign.tables import Tables, campaign_tables
from armylists.rules.report import Violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army, Unit
    from armylists.rules.native.book import Rule


def _v(rule: "Rule", code: str, message: str, source: str, unit: "Unit | None" = None, severity: str = "") -> Violation:
    return Violation(code=code, message=message, severity=severity or rule.severity,
                     unit=unit.id if unit is not None else None, rule=rule.id, source=source)


def injury_rows(tables: Tables) -> dict[str, Mapping[str, Any]]:
    """Every injury and follow-up by id."""
    rows: dict[str, Mapping[str, Any]] = {}
    for row in tables.data["injuries"]["heroes"]["rows"]:
        rows[row["id"]] = row
        for sub in row.get("sub_roll", ()):
            rows[sub["id"]] = sub
    return rows


def starting_experience(unit: "Unit", record: Mapping[str, Any]) -> int:
    return record.get("starting_experience", unit.entry.experience or 0)


def _name(unit: "Unit") -> str:
    return f"{unit.name} ({unit.id})"


@check("campaign_state")
def campaign_state(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """A warband's campaign state against the campaign tables; nothing for a warband without one."""
    state = st.read_state(army.roster.campaign)
    if state is None:
        return
    tables = campaign_tables()
    book = army.own_book.id
    rows = injury_rows(tables)
    for unit in army.units:
        record = st.warrior(state, unit.id)
        reading = tables.warrior(book, unit.entry.id) or {}
        yield from _experience(rule, tables, unit, record, state, reading)
        yield from _advances(rule, tables, unit, record)
        if record.get("hero") or unit.character:
            yield from _maxima(rule, tables, unit, record, reading, rows)
            yield from _skills(rule, tables, unit, record, reading)
        else:
            yield from _henchman_cap(rule, tables, unit, record)
    yield from _heroes(rule, tables, army, state)
    yield from _gold(rule, tables, state)


def _experience(rule, tables, unit, record, state, reading) -> Iterator[Violation]:
    source = tables.source("experience")
    if reading.get("experience") is False and (unit.experience or 0) > 0:
        yield _v(rule, "campaign.no_experience", f"{_name(unit)} never gains experience, but has {unit.experience} XP.",
                 source, unit)
        return
    start = starting_experience(unit, record)
    gained = st.battle_experience(state, unit.id)
    have = unit.experience or 0
    if have != start + gained:
        yield _v(rule, "campaign.experience_mismatch",
                 f"{_name(unit)} has {have} XP; it started with {start} and its battles gave {gained}, "
                 f"{start + gained} XP in all.", source, unit)


def _advances(rule, tables, unit, record) -> Iterator[Violation]:
    track = tables.track_of(unit.category, bool(record.get("hero")))
    if track is None:
        return
    source = tables.track(track)["source"]
    # A lad made a hero climbs the heroes' track from the experience he had then.
    start = record["promoted_at"] if "promoted_at" in record else starting_experience(unit, record)
    have = unit.experience or 0
    marks = tables.advances_earned(track, start, have)
    own = [a for a in record["advances"] if not a.get("inherited")]  # a lad's gains from his group are not his
    taken = [a for a in own if not a.get("talent")]
    free = len(own) - len(taken)  # a new hero's one roll on the heroes' table (the lad's got talent)
    if record.get("hero") and free > 1:
        taken += [a for a in own if a.get("talent")][1:]
    unearned = [a["at"] for a in taken if a["at"] not in marks]
    if len(taken) > len(marks) or unearned:
        at = f"; {', '.join(map(str, sorted(unearned)))} XP is no mark it has passed" if unearned else ""
        yield _v(rule, "campaign.advance_not_earned",
                 f"{_name(unit)} has {len(taken)} advance{'s' if len(taken) != 1 else ''}; {have} XP from a start of "
                 f"{start} earns {len(marks)}{' (at ' + ', '.join(map(str, marks)) + ' XP)' if marks else ''}{at}.",
                 source, unit)
    elif len(taken) < len(marks):
        yield _v(rule, "campaign.advance_not_taken",
                 f"{_name(unit)} has passed {len(marks)} advance mark{'s' if len(marks) != 1 else ''} but rolled "
                 f"{len(taken)}: roll the rest.", source, unit, severity="warning")


def _maxima(rule, tables, unit, record, reading, rows) -> Iterator[Violation]:
    maxima = tables.maxima(reading.get("race", ""))
    if maxima is None or not unit.entry.profiles:
        return
    profile = unit.entry.profiles[0]
    raised = st.gains(record)
    changed = st.injury_changes(record, rows)
    for name in st.CHARACTERISTICS:
        if name not in raised or not isinstance(profile.get(name), int):
            continue
        value = profile[name] + raised[name] + changed.get(name, 0)
        if value > maxima[name]:
            yield _v(rule, "campaign.over_race_maximum",
                     f"{_name(unit)}: {name} {profile[name]} + {raised[name]} from advances"
                     f"{f' {changed[name]:+d} from injuries' if changed.get(name) else ''} is {value}; "
                     f"a {reading['race']} has at most {maxima[name]}.", tables.source("race_maxima"), unit)


def _henchman_cap(rule, tables, unit, record) -> Iterator[Violation]:
    cap = tables.henchman_rules()["gain_cap"]
    for name, raised in sorted(st.gains(record).items()):
        if raised > cap:
            yield _v(rule, "campaign.henchman_gain_cap",
                     f"{_name(unit)}: {name} raised by {raised}; a henchman group gains at most +{cap} in any "
                     f"characteristic.", tables.source("henchman_advances"), unit)


def _skills(rule, tables, unit, record, reading) -> Iterator[Violation]:
    lists = record.get("skill_lists") or reading.get("skills") or []
    allowed = {skill for name in lists for skill in tables.skill_list(name)}
    for advance in record["advances"]:
        skill = advance.get("skill")
        if skill and skill not in allowed:
            yield _v(rule, "campaign.skill_not_allowed",
                     f"{_name(unit)} took the skill {skill!r}, which is on none of its lists "
                     f"({', '.join(lists) or 'it has none'}).", tables.source("skill_lists"), unit)


def _heroes(rule, tables, army, state) -> Iterator[Violation]:
    limit = tables.henchman_rules()["hero_limit"]
    heroes = sum(u.size for u in army.units if u.character)
    promoted = sum(u.size for u in army.units if not u.character and st.warrior(state, u.id).get("hero"))
    if promoted and heroes + promoted > limit:
        yield _v(rule, "campaign.too_many_heroes",
                 f"The warband has {heroes + promoted} heroes ({heroes} and {promoted} made from henchmen); at most "
                 f"{limit}, the leader included.", tables.source("henchman_advances"))


def _gold(rule, tables, state) -> Iterator[Violation]:
    source = tables.source("trading")
    balance, short = state["founding_gold"], False
    for battle in state["battles"]:
        balance += battle.get("gold_in", 0) - battle.get("gold_out", 0)
        if balance < 0:
            short = True
            yield _v(rule, "campaign.overspent",
                     f"After battle {battle['number']} the warband spent {battle.get('gold_out', 0)} gc; it held "
                     f"{balance + battle.get('gold_out', 0)} gc, {-balance} gc short.", source)
    if state["treasury"] != balance:
        yield _v(rule, "campaign.treasury_mismatch",
                 f"The treasury holds {state['treasury']} gc; the founding's {state['founding_gold']} gc and the "
                 f"battles' gold leave {balance} gc.", source)
    elif state["treasury"] < 0 and not short:
        yield _v(rule, "campaign.overspent", f"The treasury is {state['treasury']} gc: more was spent than it held.", source)
