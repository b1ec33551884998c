// The list editor's script. The page works without it (every form posts and the page reloads); with
// it, every change is sent through htmx and only the list and its report are redrawn.
//
// - One queue: changes are sent one after another, each with the list's latest revision (the server
//   sends it in X-List-Revision), so quick clicks are all applied, in order.
// - A unit's form sends the one field that changed (only=<field>), applied to the unit as saved now;
//   while more changes wait in the queue, the page is not redrawn under the player's hands.
// - One unit is open at a time, and stays open when the list is redrawn; a new unit is scrolled to.
// - The entries' search filters as you type; Enter adds the first entry that matches.
(function () {
  "use strict";
  var editor = document.getElementById("editor");
  if (!editor || !window.htmx) return;
  var openUnits = new Set();
  var queue = Promise.resolve();
  var pending = 0;
  var revision = null;

  function main() { return document.getElementById("editor-main"); }

  function toast(message) {
    var t = document.getElementById("editor-toast");
    t.textContent = message;
    t.hidden = !message;
  }

  function busy(delta) {
    pending += delta;
    editor.classList.toggle("is-saving", pending > 0);
  }

  function send(url, data) {
    busy(1);
    queue = queue.then(function () {
      data.set("revision", revision || main().dataset.revision);
      if (location.hash) history.replaceState(null, "", location.pathname + location.search);
      return htmx.ajax("POST", url, {target: "#editor-main", swap: "outerHTML", values: data});
    }).catch(function () {
      toast("Your change could not be saved. Reload the page to see the list as it is.");
    }).then(function () { busy(-1); });
  }

  function sendForm(form, submitter) {
    form.dataset.sentAt = String(Date.now());
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    send(form.getAttribute("action"), data);
  }

  function sendField(form, input) {
    form.dataset.sentAt = String(Date.now());
    var data = new FormData();
    data.set("csrfmiddlewaretoken", form.elements.csrfmiddlewaretoken.value);
    data.set("only", input.name);
    if (input.type !== "checkbox" || input.checked) data.set(input.name, input.value);
    send(form.getAttribute("action"), data);
  }

  editor.addEventListener("change", function (e) {
    var input = e.target, form = input.form;
    if (!form || !input.name) return;
    var mode = form.getAttribute("data-autosave");
    if (mode === "field") sendField(form, input);
    else if (mode === "form") sendForm(form);
  });

  editor.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.id === "catalogue-search") {
      // Enter in the search field adds the first entry that matches.
      e.preventDefault();
      var first = Array.prototype.find.call(document.querySelectorAll("#catalogue-list li"),
        function (li) { return !li.hidden && !li.closest("[data-section]").hidden; });
      if (first) first.querySelector("button").click();
      return;
    }
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    e.preventDefault();
    // Enter in a field of a self-saving form fires "change" and then "submit": send it once.
    if (form.hasAttribute("data-autosave") && Date.now() - Number(form.dataset.sentAt || 0) < 500) return;
    sendForm(form, e.submitter);
  });

  document.body.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    var next = xhr && xhr.getResponseHeader("X-List-Revision");
    if (next) {
      revision = next;
      // An answer to one unit's change redraws only what changed, not the list that carries the revision.
      if (main()) main().dataset.revision = next;
    }
    // A new card placed by such an answer is scrolled to, as a redrawn list's data-scroll says.
    var scrollTo = xhr && xhr.getResponseHeader("X-Scroll-To");
    if (scrollTo && main()) main().dataset.scroll = scrollTo;
    // More changes are waiting: draw only the last answer, so the page does not flicker back to a
    // state the player has already changed (errors and stale answers are always shown).
    if (pending > 1 && xhr.status < 300) e.detail.shouldSwap = false;
  });

  // One unit open at a time. Toggle events do not bubble, so listen while capturing.
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!(d instanceof HTMLDetailsElement) || !d.classList.contains("unit")) return;
    if (d.open) {
      openUnits.add(d.id);
      document.querySelectorAll("details.unit[open]").forEach(function (other) {
        if (other !== d) { other.open = false; openUnits.delete(other.id); }
      });
    } else {
      openUnits.delete(d.id);
    }
  }, true);

  function openUnit(id) {
    var d = document.getElementById(id);
    if (d && d.tagName === "DETAILS") d.open = true;
    return d;
  }

  document.body.addEventListener("htmx:afterSwap", function () {
    toast("");
    var m = main();
    if (!m) return;
    var scroll = m.dataset.scroll;
    m.dataset.scroll = "";  // scrolled to once: a later answer that keeps the list does not scroll again
    if (scroll) {
      openUnits.clear();
      openUnits.add("unit-" + scroll);
    }
    openUnits.forEach(function (id) { openUnit(id); });
    if (scroll) {
      var d = document.getElementById("unit-" + scroll);
      if (d) { d.scrollIntoView({block: "nearest", behavior: "smooth"}); d.classList.add("flash"); }
    } else if (document.activeElement && document.activeElement.closest && document.activeElement.closest(".unit")) {
      document.activeElement.scrollIntoView({block: "nearest"});
    }
    revision = m.dataset.revision;
    // Forms outside the redrawn part (the entries) post the new revision too, with or without script.
    document.querySelectorAll('#editor input[name="revision"]').forEach(function (i) { i.value = revision; });
  });

  document.body.addEventListener("htmx:sendError", function () {
    toast("The server could not be reached; your change was not saved.");
  });
  document.body.addEventListener("htmx:responseError", function () {
    toast("Your change could not be saved (server error). Reload the page to see the list as it is.");
  });

  // A violation's link opens its unit (the :target style highlights it).
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#unit-"]');
    if (!a) return;
    var d = openUnit(a.getAttribute("href").slice(1));
    if (d) { d.classList.remove("flash"); void d.offsetWidth; d.classList.add("flash"); }
  });
  if (location.hash.indexOf("#unit-") === 0) openUnit(location.hash.slice(1));
  document.querySelectorAll("details.unit[open]").forEach(function (d) { openUnits.add(d.id); });

  // The entries' search. The entries are redrawn after an edit of a roster tree (what the list holds back
  // changed): the filter is applied to them again, from the search field as the player left it.
  function filterEntries() {
    var search = document.getElementById("entry-search");
    if (!search) return;
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var any = false;
    document.querySelectorAll("#catalogue-list [data-section]").forEach(function (section) {
      var shown = 0;
      section.querySelectorAll("li").forEach(function (li) {
        var text = li.getAttribute("data-search");
        var ok = words.every(function (w) { return text.indexOf(w) !== -1; });
        li.hidden = !ok;
        if (ok) shown++;
      });
      section.hidden = shown === 0;
      any = any || shown > 0;
    });
    var none = document.querySelector(".catalogue-none");
    if (none) none.hidden = any;
  }
  document.addEventListener("input", function (e) {
    if (e.target && e.target.id === "entry-search") filterEntries();
  });
  document.body.addEventListener("htmx:oobAfterSwap", function (e) {
    var swapped = e.detail && e.detail.target;
    if (swapped && (swapped.id === "catalogue-list" || swapped.id === "catalogue")) filterEntries();
  });
  filterEntries();
})();
