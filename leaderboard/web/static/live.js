// A running tournament's progress, live: polls /api/tournaments/ID/progress every 2 seconds
// and updates the counts; when the tournament is no longer running, reloads the page once
// (its standings and crosstable then count every match). Nothing is fetched from elsewhere.
(function () {
  "use strict";
  var box = document.getElementById("progress");
  if (!box) { return; }
  var id = box.getAttribute("data-tournament");
  function set(field, value) {
    var node = box.querySelector('[data-field="' + field + '"]');
    if (node) { node.textContent = String(value); }
  }
  function poll() {
    fetch("/api/tournaments/" + encodeURIComponent(id) + "/progress", {cache: "no-store"})
      .then(function (reply) { return reply.ok ? reply.json() : null; })
      .then(function (doc) {
        if (!doc || !doc.progress) { return; }
        var p = doc.progress, m = p.matches;
        set("finished", m.finished); set("total", m.total); set("running", m.running);
        set("pending", m.pending); set("void", m["void"]); set("status", p.status);
        var bar = box.querySelector(".bar > span");
        if (bar && m.total) { bar.style.width = (100 * m.finished / m.total).toFixed(1) + "%"; }
        if (p.status !== "running") { window.location.reload(); return; }
        window.setTimeout(poll, 2000);
      })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 2000);
}());
