// The item picker of the editor (templates/lists/editor_items.html): typing in its search box filters
// the items by name, every word matching, and hides a type with nothing left. Delegated from the
// document, so it keeps working after htmx redraws the units.
(function () {
  "use strict";
  document.addEventListener("input", function (e) {
    var box = e.target;
    if (!box.matches || !box.matches("[data-item-search]")) return;
    var picker = box.closest(".item-picker");
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    picker.querySelectorAll("[data-type]").forEach(function (group) {
      var shown = 0;
      group.querySelectorAll("li[data-search]").forEach(function (li) {
        var text = li.getAttribute("data-search");
        var ok = words.every(function (w) { return text.indexOf(w) !== -1; });
        li.hidden = !ok;
        if (ok) shown += 1;
      });
      group.hidden = shown === 0;
    });
  });
})();
