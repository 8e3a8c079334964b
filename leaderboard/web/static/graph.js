/* The win-probability graph under a finished match's replay (templates/graph.html): loads the
   drawn graph from /matches/{id}/graph (leaderboard/web/graphs.py) into its section. Its
   swings are links to their steps (#step=N), which the replay viewer follows. Nothing is
   fetched from elsewhere. */
(function () {
  "use strict";
  var box = document.getElementById("win-graph");
  if (!box || !box.dataset.src) { return; }
  fetch(box.dataset.src, {cache: "no-store"})
    .then(function (reply) { return reply.ok ? reply.text() : ""; })
    .then(function (html) { box.innerHTML = html; box.dataset.loaded = "true"; })
    .catch(function () { box.dataset.loaded = "false"; });
}());
