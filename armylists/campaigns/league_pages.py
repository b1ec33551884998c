"""Pages of a campaign of several players (campaigns/league.py): my campaigns, creating and joining one,
a campaign's standings and battles, entering a battle, confirming or refusing the other side's, and the
standings as CSV and PDF.

Who sees what (one place, `_campaign`): whoever runs the campaign or has a warband in it; anybody else
finds nothing and joins with the code. A refused action re-shows the page with why (400; a conflicting
result 409) and saves nothing.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armylists.campaigns import league
from armylists.campaigns.battles import NotAWarband, Unavailable, open_warband
from armylists.campaigns.forms import CampaignForm, SideForm, WarbandChoiceForm
from armylists.campaigns.pages import warriors
from armylists.campaigns.models import Campaign, CampaignBattle, CampaignWarband
from armylists.models import ArmyList


def _campaign(request: HttpRequest, pk: int) -> Campaign:
    found = league.campaign_for(request.user, pk)
    if found is None:
        raise Http404("No such campaign.")
    return found


def _first_error(form) -> str:
    return next((e for errors in form.errors.values() for e in errors), "Check the form.")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request: HttpRequest) -> HttpResponse:
    """My campaigns, a form to create one and one to join one with its code."""
    form = CampaignForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            made = league.create_campaign(request.user, form.cleaned_data["name"])
            messages.success(request, f"{made.name} is created; its join code is {made.join_code}. Give it to "
                                      f"the players.")
            return redirect("campaign-detail", made.pk)
    join = WarbandChoiceForm(lists=league.warbands_to_enter(request.user), code=True)
    return render(request, "campaigns/campaign_list.html",
                  {"campaigns": league.campaigns_of(request.user), "form": form, "join": join},
                  status=400 if form.errors else 200)


@login_required
@require_POST
def campaign_join(request: HttpRequest) -> HttpResponse:
    form = WarbandChoiceForm(request.POST, lists=league.warbands_to_enter(request.user), code=True)
    found = league.by_code(request.POST.get("code", "")) if form.is_valid() else None
    why = _first_error(form) if not form.is_valid() else ""
    if form.is_valid() and found is None:
        why = "No campaign has that join code: check it with the player who created the campaign."
    if not why:
        try:
            league.enter_warband(found, request.user, ArmyList.objects.get(pk=form.cleaned_data["army_list"]))
        except league.CampaignError as exc:
            why = exc.message
    if why:
        return render(request, "campaigns/campaign_list.html",
                      {"campaigns": league.campaigns_of(request.user), "form": CampaignForm(), "join": form,
                       "error": why}, status=400)
    messages.success(request, f"Your warband is in {found.name}.")
    return redirect("campaign-detail", found.pk)


def _detail(request: HttpRequest, campaign: Campaign, error: str = "", status: int = 200) -> HttpResponse:
    mine = [w for w in campaign.warbands.select_related("army_list") if w.player_id == request.user.pk]
    battles = league.battles_of(campaign)
    for b in battles:  # what this player may do with each battle, for the template (no logic there)
        pending = b.status == CampaignBattle.PENDING
        b.can_confirm = pending and b.second.player_id == request.user.pk
        b.can_withdraw = pending and b.first.player_id == request.user.pk and not b.can_confirm
        b.said = f"{b.first.army_list.name} {b.first_side['result']} against {b.second.army_list.name}"
    context = {"campaign": campaign, "standings": league.standings(campaign), "battles": battles, "mine": mine,
               "is_owner": campaign.owner_id == request.user.pk, "error": error,
               "enter": WarbandChoiceForm(lists=league.warbands_to_enter(request.user, campaign))}
    return render(request, "campaigns/league.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings and battles; POST enters one more of my warbands."""
    campaign = _campaign(request, pk)
    if request.method == "GET":
        return _detail(request, campaign)
    form = WarbandChoiceForm(request.POST, lists=league.warbands_to_enter(request.user, campaign))
    if not form.is_valid():
        return _detail(request, campaign, _first_error(form), 400)
    try:
        entry = league.enter_warband(campaign, request.user, ArmyList.objects.get(pk=form.cleaned_data["army_list"]))
    except league.CampaignError as exc:
        return _detail(request, campaign, exc.message, 400)
    messages.success(request, f"“{entry.army_list.name}” is in {campaign.name}.")
    return redirect("campaign-detail", campaign.pk)


def _side_form(entry: CampaignWarband, data=None, opponents=None) -> SideForm:
    loaded = open_warband(entry.army_list)
    return SideForm(data, initial={"result": "won"}, warriors=warriors(loaded), opponents=opponents)


@login_required
@require_http_methods(["GET", "POST"])
def battle_new(request: HttpRequest, pk: int, wid: int) -> HttpResponse:
    """Entering a battle of my warband `wid` against another of the campaign: my side, confirmed."""
    campaign = _campaign(request, pk)
    mine = get_object_or_404(CampaignWarband.objects.select_related("army_list"), pk=wid, campaign=campaign,
                             player=request.user)
    opponents = [(w.pk, f"{w.army_list.name} ({w.player.get_username()})")
                 for w in campaign.warbands.select_related("army_list", "player") if w.pk != mine.pk]
    try:
        form = _side_form(mine, request.POST or None, opponents)
    except (NotAWarband, Unavailable) as exc:
        return _detail(request, campaign, str(exc), 400)
    error = ""
    if request.method == "POST" and form.is_valid():
        theirs = CampaignWarband.objects.get(pk=form.cleaned_data["opponent"])
        try:
            league.enter_battle(campaign, request.user, mine, theirs, form.battle())
        except league.CampaignError as exc:
            error = exc.message
        else:
            messages.success(request, f"The battle against {theirs.army_list.name} is entered; it is pending until "
                                      f"its player confirms their side.")
            return redirect("campaign-detail", campaign.pk)
    return render(request, "campaigns/battle_side.html",
                  {"campaign": campaign, "entry": mine, "form": form, "error": error, "battle": None},
                  status=400 if request.method == "POST" else 200)


def _pending_battle(request: HttpRequest, campaign: Campaign, bid: int) -> CampaignBattle:
    return get_object_or_404(CampaignBattle.objects.select_related("first__army_list", "second__army_list"),
                             pk=bid, campaign=campaign)


@login_required
@require_http_methods(["GET", "POST"])
def battle_confirm(request: HttpRequest, pk: int, bid: int) -> HttpResponse:
    """The other player's side of a pending battle; recorded on both warbands once it agrees."""
    campaign = _campaign(request, pk)
    battle = _pending_battle(request, campaign, bid)
    if battle.second.player_id != request.user.pk or battle.status != CampaignBattle.PENDING:
        return _detail(request, campaign, "Only the other warband's player confirms a pending battle.", 400)
    try:
        form = _side_form(battle.second, request.POST or None)
    except (NotAWarband, Unavailable) as exc:
        return _detail(request, campaign, str(exc), 400)
    form.initial["result"] = league.OPPOSITE[battle.first_side["result"]]
    error, status = "", 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                league.confirm_battle(battle, request.user, form.battle())
            except league.CampaignError as exc:
                error, status = exc.message, 409 if exc.conflict else 400
            else:
                messages.success(request, f"The battle is recorded for {battle.first.army_list.name} and "
                                          f"{battle.second.army_list.name}.")
                return redirect("campaign-detail", campaign.pk)
    return render(request, "campaigns/battle_side.html",
                  {"campaign": campaign, "entry": battle.second, "form": form, "error": error, "battle": battle},
                  status=status)


@login_required
@require_POST
def battle_refuse(request: HttpRequest, pk: int, bid: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    battle = _pending_battle(request, campaign, bid)
    try:
        league.refuse_battle(battle, request.user, request.POST.get("why", "")[:500])
    except league.CampaignError as exc:
        return _detail(request, campaign, exc.message, 400)
    messages.success(request, "The battle is refused; nothing was recorded.")
    return redirect("campaign-detail", campaign.pk)


@login_required
@require_GET
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    response = HttpResponse(league.standings_csv(league.standings(campaign)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-standings.csv"'
    return response


@login_required
@require_GET
def standings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    response = HttpResponse(league.standings_pdf(campaign), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-standings.pdf"'
    return response
