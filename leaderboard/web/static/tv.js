// The TV page follows the pick: it asks /api/tv again every few seconds. When the featured
// match changes it loads the page again (the new match's live viewer); otherwise it redraws
// the list of the other live matches in place, leaving the viewer alone.
(function () {
  "use strict";
  const section = document.getElementById("tv");
  if (!section) return;
  const shown = section.dataset.featured || "";
  const body = document.querySelector("table.live tbody");

  function cell(row, text, numeric) {
    const td = document.createElement("td");
    if (numeric) td.className = "n";
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function redraw(others) {
    const rows = [];
    others.forEach(function (m) {
      const row = document.createElement("tr");
      const link = document.createElement("a");
      link.href = "/matches/" + m.id;
      link.textContent = "#" + m.id;
      cell(row, "", false).appendChild(link);
      cell(row, m.game, false);
      cell(row, m.seats.map(function (s) { return s.bot; }).join(", "), false);
      cell(row, m.rating.toFixed(1), true);
      rows.push(row);
    });
    if (!rows.length) {
      const row = document.createElement("tr");
      const td = cell(row, "none", false);
      td.colSpan = 4;
      td.className = "dim";
      rows.push(row);
    }
    body.replaceChildren.apply(body, rows);
  }

  function look() {
    fetch("/api/tv", {headers: {Accept: "application/json"}})
      .then(function (reply) { return reply.ok ? reply.json() : null; })
      .then(function (data) {
        if (!data) return;
        const featured = data.tv.featured ? String(data.tv.featured.id) : "";
        if (featured !== shown) { window.location.reload(); return; }
        redraw(data.tv.others);
      })
      .catch(function () { /* the next look tries again */ })
      .finally(function () { window.setTimeout(look, 3000); });
  }
  window.setTimeout(look, 3000);
})();
