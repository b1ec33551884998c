// The new-list form (templates/lists/new_list.html); a file, not inline, for the Content-Security-Policy.
// Label the limit with the chosen system's unit (pts, gc), and use its usual size until the player types one.
(function () {
  var meta = JSON.parse(document.getElementById("book-meta").textContent);
  var book = document.getElementById("id_book"), limit = document.getElementById("id_points_limit");
  var unit = document.getElementById("limit-unit"), typed = false;
  limit.addEventListener("input", function () { typed = true; });
  // Offer only the chosen book's compositions and allies (the server checks the pair too).
  function narrow() {
    ["id_composition", "id_allies"].forEach(function (id) {
      var select = document.getElementById(id);
      if (!select) return;
      Array.prototype.forEach.call(select.querySelectorAll("option"), function (el) {
        if (el.value === "") return;
        var mine = !book.value || el.value.indexOf(book.value + "/") === 0;
        el.hidden = !mine;
        el.disabled = !mine;
        if (!mine && el.selected) select.value = "";
      });
      Array.prototype.forEach.call(select.querySelectorAll("optgroup"), function (group) {
        group.hidden = !group.querySelector("option:not([hidden])");
      });
    });
  }
  narrow();
  book.addEventListener("change", function () {
    narrow();
    var m = meta[book.value];
    unit.textContent = m ? "(" + m.unit + ")" : "";  // no book: no unit (pts, gc) to name yet
    if (m && !typed && m["default"]) limit.value = m["default"];
  });
})();
