// The event form (templates/events/event_form.html): the game system is chosen first; the allowed
// books, the compositions and the matched-play rules of the other systems are hidden (and left out)
// so the organiser picks among this system's by name. The server checks the same (events/forms.py).
(function () {
  "use strict";
  var system = document.querySelector("[data-event-system]");
  if (!system) return;
  function show() {
    var id = system.value;
    var name = system.options[system.selectedIndex] ? system.options[system.selectedIndex].text : "";
    ["id_allowed_books", "id_composition"].forEach(function (fieldId) {
      var select = document.getElementById(fieldId);
      if (!select) return;
      select.querySelectorAll("optgroup").forEach(function (group) {
        var mine = group.label === name;
        group.hidden = !mine;
        group.querySelectorAll("option").forEach(function (o) {
          o.disabled = !mine;
          if (!mine) o.selected = false;
        });
      });
    });
    document.querySelectorAll('input[name="play_modes"]').forEach(function (input) {
      var mine = input.value.indexOf(id + "/") === 0;
      var label = input.closest("label") || input.parentElement;
      label.hidden = !mine;
      if (!mine) input.checked = false;
    });
    // Each system's rules sit under its name: a group with none of this system's is hidden whole.
    document.querySelectorAll("#id_play_modes > div").forEach(function (group) {
      group.hidden = !group.querySelector('input[value^="' + id + '/"]');
    });
  }
  system.addEventListener("change", show);
  show();
})();
