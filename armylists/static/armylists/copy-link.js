// The list page's "Copy" button for the share link (templates/lists/list_detail.html); a file, not inline,
// for the Content-Security-Policy.
document.addEventListener("click", function (e) {
  var b = e.target.closest("[data-copy]");
  if (!b) return;
  var input = document.querySelector(b.getAttribute("data-copy"));
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(function () {});
  else document.execCommand("copy");
  b.textContent = "Copied";
});
