"""Bringing a list in from elsewhere (`/lists/import/`): a file or pasted text, read by
`armylists.listfiles.importing`, saved as the player's new list and opened in the editor. A list that cannot
be read is shown again with what is wrong and where (400), and nothing is saved."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from armylists.lists.kinds import kind_of
from armylists.lists.library.catalogue import validate_roster
from armylists.listfiles.forms import ImportListForm
from armylists.listfiles.importing import ImportProblem, data_dates, format_names, import_list
from armylists.models import ArmyList


@login_required
@require_http_methods(["GET", "POST"])
def import_list_view(request: HttpRequest) -> HttpResponse:
    formats, dates = format_names(), data_dates()
    if request.method == "POST":
        form = ImportListForm(request.POST, request.FILES, dates=dates)
        if form.is_valid():
            upload = form.cleaned_data.get("file")
            if upload is not None:
                data, source = upload.read(), upload.name
            else:
                data, source = form.cleaned_data["text"].encode("utf-8"), "The pasted list"
            try:
                roster, book, how, notices = import_list(data, source, form.cleaned_data.get("data_as_of"))
            except ImportProblem as exc:
                form.add_error(None, str(exc))
            else:
                army_list = ArmyList(owner=request.user)
                army_list.set_document(roster, validate_roster(book, roster))
                army_list.save()
                # the list's kind counts its units: a roster tree's are its forces' root selections
                units = kind_of(roster).unit_count(roster)
                messages.info(request, f"Imported “{army_list.name}” ({how}): {units} "
                                       f"unit{'' if units == 1 else 's'}, {book.name}, limit "
                                       f"{roster.points_limit} {book.system.budget_unit}.")
                for notice in notices:  # figures the other tool wrote that are not ours: worth a look
                    messages.warning(request, notice)
                return redirect("list-edit", army_list.pk)
        return render(request, "lists/import.html", {"form": form, "formats": formats}, status=400)
    return render(request, "lists/import.html", {"form": ImportListForm(dates=dates), "formats": formats})
