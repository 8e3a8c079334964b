/* The replay viewer of /matches/{id}: draws the table at every step from the frames of
   /api/matches/{id}/replay (leaderboard/web/frames.py), and follows a running match through
   the server-sent events of /api/matches/{id}/live (from the page's view: every hand too, where
   the server offers it). No library, nothing fetched from elsewhere.

   A frame holds only the fields that changed since the frame before ("public", and per seat
   whose cards the view shows, "seats"); merged() rebuilds each whole. A table renderer per
   game (RENDER, keyed by the game's name) draws it; any other game gets the generic one,
   which shows every field and draws whatever holds cards as cards. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var game = root.dataset.game;
  var matchId = root.dataset.match;
  var bots = (root.dataset.bots || "").split("|");
  var live = root.dataset.live === "true";
  var table = document.getElementById("table");
  var logList = document.getElementById("log");
  var decisionBox = document.getElementById("decision");
  var slider = document.getElementById("slider");
  var counter = document.getElementById("step-counter");
  var playButton = document.getElementById("play");
  var speedSelect = document.getElementById("speed");

  var frames = [];   // as sent
  var whole = [];    // merged: {public, seats}
  var header = null;
  var at = 0;
  var timer = null;
  var ended = !live;

  // ------------------------------------------------------------ small DOM helpers
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) { continue; }
      if (Array.isArray(child)) { child.forEach(function (c) { add(parent, c); }); }
      else { parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child); }
    }
    return parent;
  }
  function seatName(s) { return "seat " + s + (bots[s] ? " · " + bots[s] : ""); }

  // ------------------------------------------------------------ cards
  var SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663", N: "\u2020" };
  var SUIT_WORD = { spades: "\u2660", hearts: "\u2665", diamonds: "\u2666", clubs: "\u2663", knives: "\u2020" };
  var CARD = /^(X[12]?|[2-9TJQKAGM][SHDCN](#\d+)?)$/;
  function isCard(value) { return typeof value === "string" && CARD.test(value); }
  function isCardList(value) {
    return Array.isArray(value) && value.length > 0 && value.every(isCard);
  }
  function rankText(rank, suit) {
    if (game === "knives" && suit !== "N") {
      return { G: "Gh", T: "Th", M: "Ma" }[rank] || rank;
    }
    return rank === "T" ? "10" : rank;
  }
  function card(code, small) {
    var node = el("span", "card face" + (small ? " small" : ""));
    node.dataset.card = code;
    if (code.charAt(0) === "X") {  /* a Joker: a star in the corner, never a "J" (a Jack) */
      node.classList.add("joker");
      add(node, el("span", "rank", "\u2605"), el("span", "suit", "\u2605"), el("span", "corner", "JOKER"));
      node.title = "Joker";
      node.setAttribute("aria-label", "Joker");
      return node;
    }
    var base = code.split("#")[0];
    var rank = base.charAt(0), suit = base.charAt(1);
    if (suit === "H" || suit === "D") { node.classList.add("red"); }
    if (suit === "N") { node.classList.add("knife"); }
    add(node, el("span", "rank", rankText(rank, suit)), el("span", "suit", SUIT[suit] || suit),
        el("span", "corner", SUIT[suit] || ""));
    node.title = code;
    return node;
  }
  function back(small) { return el("span", "card back" + (small ? " small" : "")); }
  function cardRow(codes, opts) {
    opts = opts || {};
    var row = el("div", "hand" + (opts.fan ? " fan" : "") + " face");
    (codes || []).forEach(function (c) { add(row, isCard(c) ? card(c, opts.small) : el("span", "", c)); });
    return row;
  }
  function backRow(count, opts) {
    opts = opts || {};
    var row = el("div", "hand fan hidden");
    var shown = Math.min(count || 0, opts.most || 14);
    for (var i = 0; i < shown; i++) { add(row, back(opts.small)); }
    if ((count || 0) > shown || opts.counted) { add(row, el("span", "count", "\u00d7" + count)); }
    return row;
  }
  /* A hand of which some cards are known to all (drawn face up) and the rest hidden (as
     many backs as it holds beyond them). */
  function partHand(known, count) {
    var row = el("div", "hand fan " + (known.length ? "part" : "hidden"));
    known.forEach(function (c) { add(row, card(c)); });
    for (var i = known.length; i < Math.min(count || 0, 14); i++) { add(row, back()); }
    return row;
  }
  /* A seat's hand: face up where the view has it (its own cards, or cards shown to all),
     else as many backs as it holds. */
  function handOf(w, s, field, sizes) {
    var own = w.seats[String(s)];
    var row;
    if (own && own[field] !== undefined && own[field] !== null) {
      row = cardRow(Array.isArray(own[field]) ? own[field] : [own[field]], { fan: own[field].length > 8 });
    } else {
      row = backRow(sizes ? sizes[s] : 0);
    }
    row.dataset.seat = s;
    return row;
  }
  function label(text) { return el("div", "label", text); }
  function info(parts) {
    var line = el("div", "info");
    parts.filter(function (p) { return p !== null && p !== undefined && p !== ""; }).forEach(function (p, i) {
      if (i) { add(line, " \u00b7 "); }
      add(line, p);
    });
    return line;
  }
  function bold(text) { return el("b", "", text); }
  function words(value) { return value === null || value === undefined ? "–" : String(value).replace(/_/g, " "); }

  function seatPanel(w, s, tags, body) {
    var panel = el("div", "seat");
    panel.dataset.seat = s;
    if (w.to_act === s) { panel.classList.add("acting"); }
    var title = add(el("h3"), el("span", "", seatName(s)));
    (tags || []).forEach(function (t) { if (t) { add(title, el("span", "tag", t)); } });
    if (w.to_act === s) { add(title, el("span", "tag", "to act")); }
    return add(panel, title, body);
  }
  function trick(cards, seats, caption) {
    var box = el("div", "trick");
    (cards || []).forEach(function (c, i) {
      var fig = add(el("figure"), card(c), el("figcaption", "", "seat " + seats[i]));
      add(box, fig);
    });
    if (!cards || !cards.length) { add(box, el("span", "dim", caption || "no card on the table")); }
    return box;
  }
  /* The seats around the table: the first half below it, the others above, in reverse, so
     that the order runs round the table. */
  function seatsGrid(w, count, panel) {
    var below = el("div", "seats below"), above = el("div", "seats above");
    var half = Math.ceil(count / 2);
    for (var s = 0; s < count; s++) { add(s < half ? below : above, panel(s)); }
    var reversed = Array.prototype.slice.call(above.children).reverse();
    reversed.forEach(function (node) { above.appendChild(node); });
    return { above: above, below: below };
  }
  function around(center, seats) { return [seats.above, center, seats.below]; }
  function players(w, p) {
    var n = p.hand_sizes || p.hole_counts || p.clues || p.totals || [];
    return p.players || n.length || bots.length;
  }

  // ------------------------------------------------------------ one renderer per game
  var RENDER = {};

  RENDER["king"] = function (w) {
    var p = w.public;
    var center = el("div", "center");
    var contract = [bold(words(p.kind)), "dealer seat " + p.dealer];
    if (p.mode) { contract.push(words(p.mode)); }
    if (p.trump) { contract.push("trump " + (SUIT_WORD[p.trump] || p.trump)); }
    if (p.declarer !== null && p.declarer !== undefined) { contract.push("declarer seat " + p.declarer); }
    add(center, info(["hand " + (p.hand_index + 1) + " of " + p.hands_in_match].concat(contract).concat([words(p.phase)])));
    var last = p.tricks && p.tricks.length ? p.tricks[p.tricks.length - 1] : null;
    if (p.trick_cards && p.trick_cards.length) {
      add(center, trick(p.trick_cards, p.trick_seats));
    } else if (last) {
      add(center, add(el("div"), label("last trick, won by seat " + last.winner), trick(last.cards, last.seats)));
    } else {
      add(center, trick([], [], p.phase === "play" ? "the trick is empty" : "auction: " + (p.calls || []).length + " calls"));
    }
    add(center, info(["trick " + ((p.tricks || []).length + 1) + " of 13"]));
    var panels = seatsGrid(w, 4, function (s) {
      return seatPanel(w, s, [s === p.dealer ? "dealer" : null], [
        handOf(w, s, "hand", p.hand_sizes),
        el("div", "line", "tricks " + p.tricks_won[s] + " · this hand " + p.hand_scores[s] + " · total " + p.totals[s])]);
    });
    return around(center, panels);
  };

  RENDER["knives"] = function (w) {
    var p = w.public;
    var center = el("div", "center");
    add(center, info(["hand " + (p.hand_index + 1), "dealer seat " + p.dealer, words(p.phase),
      p.strong ? "strong suit " + (SUIT_WORD[p.strong] || p.strong) : null,
      p.banker !== null && p.banker !== undefined ? "banker seat " + p.banker : null,
      p.mode ? words(p.mode) : null,
      p.ghost_played_by !== null && p.ghost_played_by !== undefined ? "Ghost played by seat " + p.ghost_played_by : null]));
    if (p.bank_size) { add(center, add(el("div"), label("bank"), backRow(p.bank_size))); }
    if (p.revealed && p.revealed.length) { add(center, add(el("div"), label("revealed"), cardRow(p.revealed))); }
    var last = p.tricks && p.tricks.length ? p.tricks[p.tricks.length - 1] : null;
    if (p.trick_cards && p.trick_cards.length) { add(center, trick(p.trick_cards, p.trick_seats)); }
    else if (last) { add(center, add(el("div"), label("last trick, won by seat " + last.winner), trick(last.cards, last.seats))); }
    else { add(center, trick([], [])); }
    var panels = seatsGrid(w, 5, function (s) {
      var own = w.seats[String(s)] || {};
      var body = [handOf(w, s, "hand", p.hand_sizes)];
      if (own.banked && own.banked.length) { body.push(label("banked"), cardRow(own.banked, { small: true })); }
      if (own.bank_seen && own.bank_seen.length) { body.push(label("bank (seen)"), cardRow(own.bank_seen, { small: true })); }
      body.push(el("div", "line", "stars " + p.stars_taken[s] + " · total " + p.totals[s]));
      return seatPanel(w, s, [s === p.dealer ? "dealer" : null, s === p.banker ? "banker" : null,
                              own.is_shadow ? "shadow" : null], body);
    });
    return around(center, panels);
  };

  var COMPASS = [["NW", 7], ["N", 0], ["NE", 4], ["W", 3], ["stock", -1], ["E", 1], ["SW", 6], ["S", 2], ["SE", 5]];
  RENDER["kings-corner"] = function (w) {
    var p = w.public;
    var center = el("div", "center");
    add(center, info(["deal " + p.deal, "dealer seat " + p.dealer, "moves this turn " + p.moves_this_turn,
                      "target " + p.target_score]));
    var grid = el("div", "compass");
    COMPASS.forEach(function (spot) {
      var pile = el("div", "pile");
      pile.dataset.pile = spot[0];
      if (spot[1] < 0) {
        add(pile, p.stock_size ? backRow(Math.min(p.stock_size, 3), { most: 3 }) : el("span", "empty"), label("stock " + p.stock_size));
      } else {
        var cards = p.piles[spot[1]] || [];
        add(pile, cards.length ? cardRow(cards.slice(-4)) : el("span", "empty"), label(spot[0] + (cards.length ? " (" + cards.length + ")" : "")));
      }
      add(grid, pile);
    });
    add(center, grid);
    var panels = seatsGrid(w, players(w, p), function (s) {
      return seatPanel(w, s, [s === p.dealer ? "dealer" : null],
        [handOf(w, s, "hand", p.hand_sizes), el("div", "line", p.hand_sizes[s] + " cards · penalty total " + p.totals[s])]);
    });
    return around(center, panels);
  };

  RENDER["kill"] = function (w) {
    var p = w.public;
    var center = el("div", "center");
    add(center, info(["round " + (p.round_index + 1), "starter seat " + p.starter, words(p.phase),
                      "turns " + p.turns_completed]));
    add(center, add(el("div"), label("deck"), backRow(Math.min(p.deck_size, 3), { most: 3 }), label(p.deck_size + " cards")));
    add(center, add(el("div"), label("drawn"), p.drawn ? cardRow([p.drawn]) : el("span", "dim", "none")));
    add(center, add(el("div"), label("used pile"), label(p.used_size + " cards")));
    var panels = seatsGrid(w, players(w, p), function (s) {
      var own = w.seats[String(s)] || {};
      /* From the view alone: a seat out of the round shows its hand (face_up); an active
         seat, its own hand in its seat's view, else the cards known to all (its A, 2, 3 until
         it discards unseen, a hand shown by a kill or a Joker claim: "shown") and backs. */
      var open = p.face_up && p.face_up[s] && p.face_up[s].length;
      var known = (p.shown && p.shown[s]) || [];
      var hand;
      if (open) { hand = cardRow(p.face_up[s]); }
      else if (own.hand) { hand = handOf(w, s, "hand", p.hand_sizes); }
      else { hand = partHand(known, p.hand_sizes[s]); }
      hand.dataset.seat = s;
      var body = [hand];
      if (own.gift) { body.push(label("gift"), cardRow([own.gift], { small: true })); }
      body.push(el("div", "line", "suit " + (SUIT_WORD[p.seat_suits[s]] || p.seat_suits[s]) + " · round " +
                   p.round_points[s] + " · total " + p.totals[s]));
      var panel = seatPanel(w, s, [p.statuses[s] !== "active" ? words(p.statuses[s]) : null,
                                   p.immune[s] ? "immune" : null], body);
      if (p.statuses[s] !== "active") { panel.classList.add("out"); }
      return panel;
    });
    return around(center, panels);
  };

  RENDER["face-card-kill-card"] = function (w) {
    var p = w.public;
    var center = el("div", "center");
    add(center, info([p.tiebreak_game ? "tie-break game " + p.tiebreak_game : "main game", "dealer seat " + p.dealer,
                      "face cards unseen " + p.face_cards_unseen, "passes in a row " + p.consecutive_passes]));
    add(center, add(el("div"), label("stock"), backRow(Math.min(p.stock_size, 3), { most: 3 }), label(p.stock_size + " cards")));
    var panels = seatsGrid(w, players(w, p), function (s) {
      var own = w.seats[String(s)] || {};
      var hole;
      if (own.hole_cards) { hole = cardRow(own.hole_cards); }
      else if (p.holes && p.holes.length) { hole = cardRow(p.holes[s]); }
      else { hole = backRow(p.hole_counts[s]); }
      hole.dataset.seat = s;
      var panel = seatPanel(w, s, [s === p.dealer ? "dealer" : null, p.eliminated[s] ? "eliminated" : null,
                                   p.in_game[s] ? null : "out of the tie-break"],
        [label("hole"), hole, label("face up"), cardRow(p.face_up[s], { fan: p.face_up[s].length > 6 }),
         el("div", "line", "face-up total " + p.face_up_totals[s])]);
      if (p.eliminated[s] || !p.in_game[s]) { panel.classList.add("out"); }
      return panel;
    });
    return around(center, panels);
  };

  RENDER["serial-killer"] = function (w) {
    var p = w.public;
    var center = el("div", "center");
    add(center, info(["turn " + p.turn + " of at most " + p.max_turns, words(p.phase), "stack " + p.stack_size,
                      "police pile " + p.police_pile]));
    var graves = el("div", "graves");
    (p.graves || []).forEach(function (cards, g) {
      var pile = el("div", "pile" + (p.current_grave === g || (p.targets || []).indexOf(g) >= 0 ? " target" : ""));
      pile.dataset.pile = g;
      var stack = el("div", "stack");
      cards.forEach(function (c) { add(stack, card(c)); });
      if (!cards.length) { add(stack, el("span", "empty card back")); stack.firstChild.style.opacity = ".25"; }
      add(pile, label("grave " + g), stack);
      add(graves, pile);
    });
    add(center, graves);
    if (p.drawn_card) { add(center, add(el("div"), label("drawn for grave " + p.current_grave), cardRow([p.drawn_card]))); }
    if (p.set_aside && p.set_aside.length) { add(center, add(el("div"), label("set aside"), cardRow(p.set_aside, { small: true }))); }
    var panels = seatsGrid(w, players(w, p), function (s) {
      var panel = seatPanel(w, s, [p.arrested[s] ? "arrested" : null, s === p.first_player ? "first" : null],
        [label("held"), p.held[s].length ? cardRow(p.held[s]) : el("span", "dim", "nothing"),
         el("div", "line", "clues " + p.clues[s])]);
      if (p.arrested[s]) { panel.classList.add("out"); }
      return panel;
    });
    return around(center, panels);
  };

  /* Any game: every public field, cards drawn as cards, and each shown seat's own fields. */
  function generic(w) {
    var center = el("div", "center");
    var list = el("dl", "fields");
    Object.keys(w.public).forEach(function (key) { add(list, el("dt", "", key), add(el("dd"), value(w.public[key]))); });
    add(center, list);
    var grid = el("div", "seats");
    Object.keys(w.seats).forEach(function (s) {
      var own = w.seats[s];
      var body = Object.keys(own).map(function (key) { return add(el("div"), label(key), value(own[key])); });
      add(grid, seatPanel(w, +s, [], body));
    });
    return [center, grid];
  }
  function value(v) {
    if (isCard(v)) { return cardRow([v], { small: true }); }
    if (isCardList(v)) { return cardRow(v, { small: true }); }
    if (Array.isArray(v) && v.length && v.every(isCardList)) {
      return add(el("div"), v.map(function (row) { return cardRow(row, { small: true }); }));
    }
    return el("code", "", typeof v === "object" ? JSON.stringify(v) : String(v));
  }

  // ------------------------------------------------------------ frames and the log
  function merged(frame, before) {
    var seats = {};
    var keys = Object.keys(frame.seats || {});
    if (before) { Object.keys(before.seats).forEach(function (s) { if (keys.indexOf(s) < 0) { keys.push(s); } }); }
    keys.forEach(function (s) {
      seats[s] = Object.assign({}, before && before.seats[s], (frame.seats || {})[s]);
    });
    return { public: Object.assign({}, before && before.public, frame.public), seats: seats,
             to_act: frame.to_act };
  }
  function take(frame) {
    frames.push(frame);
    whole.push(merged(frame, whole.length ? whole[whole.length - 1] : null));
    addLogEntry(frame);
  }
  function seconds(s) { return s >= 1 ? s.toFixed(2) + " s" : (s * 1000).toFixed(s < 0.01 ? 2 : 0) + " ms"; }

  function addLogEntry(frame) {
    var item = el("li");
    item.dataset.step = frame.step;
    var d = frame.decision;
    if (!d) { add(item, el("span", "who", "deal")); }
    else {
      add(item, el("span", "who", frame.step + ". seat " + d.seat), " ");
      if (d.choice !== undefined) { add(item, el("span", "choice", d.choice), " "); }
      else { add(item, el("span", "dim", "decided"), " "); }
      add(item, el("span", "think", "in " + seconds(d.seconds)));
      if (d.fallback) { add(item, " ", el("span", "fault", "(fallback)")); }
    }
    (frame.faults || []).forEach(function (f) {
      add(item, el("span", "ev fault", "fault: seat " + f.seat + " " + f.fault + (f.reason ? ": " + f.reason : "")));
    });
    (frame.events || []).forEach(function (e) {
      var line = el("span", "ev" + (e.to ? " private" : ""), e.text + (e.to ? "  [to seat " + e.to.join(", ") + "]" : ""));
      add(item, line);
    });
    item.addEventListener("click", function () { stop(); show(+item.dataset.step); });
    logList.appendChild(item);
  }

  function showDecision(frame) {
    decisionBox.textContent = "";
    var d = frame.decision;
    if (!d) {
      add(decisionBox, el("strong", "", "The deal"), el("div", "dim", frame.events.length + " events"));
      return;
    }
    add(decisionBox, el("strong", "", "Step " + frame.step + ": " + seatName(d.seat)));
    if (d.choice !== undefined) {
      add(decisionBox, el("div", "", "chose " + d.choice + " in " + seconds(d.seconds) + (d.fallback ? " (the referee's fallback: the seat had faulted)" : "")));
      var offered = el("div", "offered");
      (d.offered || []).forEach(function (text, i) { add(offered, el("span", i === d.chosen ? "chosen" : "", text)); });
      add(decisionBox, el("div", "dim", (d.offered || []).length + " offered:"), offered);
    } else {
      add(decisionBox, el("div", "", "decided in " + seconds(d.seconds) + (d.fallback ? " (fallback)" : "")),
          el("div", "dim", "its choice and the actions it was offered are hidden from this view"));
    }
    if (d.note !== undefined) {  // the bot's own words: text, never markup
      add(decisionBox, el("div", "note", "its note: " + d.note + (d.note_cut ? " (" + d.note_cut + " more bytes cut)" : "")));
    }
  }

  // ------------------------------------------------------------ showing a step
  function show(step) {
    if (!whole.length) {
      counter.textContent = live ? "waiting for the first step…" : "no steps";
      counter.dataset.step = "-1";
      table.textContent = "";
      add(table, el("p", "", live ? "The match has started; its first step shows here as soon as it is played." :
                              header && header.error ? "This match's log does not replay: " + header.error :
                              "Nothing to show: the match has not been played."));
      return;
    }
    at = Math.max(0, Math.min(step, whole.length - 1));
    var w = whole[at];
    var draw = RENDER[game] || generic;
    table.textContent = "";
    table.dataset.step = at;
    try { add(table, draw(w)); } catch (err) { table.textContent = ""; add(table, generic(w)); }
    slider.max = String(whole.length - 1);
    slider.value = String(at);
    counter.textContent = "step " + at + " of " + (whole.length - 1) + (live && !ended ? " (live)" : "");
    counter.dataset.step = String(at);
    shareStep();
    var items = logList.children;
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("current", i === at);
      items[i].classList.toggle("future", i > at);
    }
    var current = items[at];
    if (current) {
      var top = current.offsetTop - logList.offsetTop;
      if (top < logList.scrollTop || top > logList.scrollTop + logList.clientHeight - current.offsetHeight) {
        logList.scrollTop = Math.max(0, top - logList.clientHeight / 3);
      }
    }
    showDecision(frames[at]);
  }

  // ------------------------------------------------------------ a step's URL
  /* Every step has a URL: the page's, with #step=N. The address bar follows the step shown
     (replaced, not pushed: the back button leaves the replay, not the last step), and the
     links to the other views keep it, so that a view opens at the same moment. */
  function stepAsked() {
    var found = /^#step=(\d+)$/.exec(window.location.hash);
    return found ? Number(found[1]) : null;
  }
  function shareStep() {
    var hash = "#step=" + at;
    if (window.location.hash !== hash) {
      history.replaceState(null, "", window.location.pathname + window.location.search + hash);
    }
    document.querySelectorAll("a.view[data-view]").forEach(function (link) {
      link.setAttribute("href", link.getAttribute("href").split("#")[0] + hash);
    });
  }

  // ------------------------------------------------------------ controls
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playButton.textContent = "play";
    playButton.setAttribute("aria-pressed", "false");
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (at >= whole.length - 1 && ended) { show(0); }
    playButton.textContent = "pause";
    playButton.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      if (at < whole.length - 1) { show(at + 1); }
      else if (ended) { stop(); }
    }, 1000 / Number(speedSelect.value || 2));
  }
  document.getElementById("first").addEventListener("click", function () { stop(); show(0); });
  document.getElementById("last").addEventListener("click", function () { stop(); show(whole.length - 1); });
  document.getElementById("back").addEventListener("click", function () { stop(); show(at - 1); });
  document.getElementById("forward").addEventListener("click", function () { stop(); show(at + 1); });
  playButton.addEventListener("click", play);
  window.addEventListener("hashchange", function () {  // a step's URL opened on this page
    var asked = stepAsked();
    if (asked !== null && whole.length && asked !== at) { stop(); show(asked); }
  });
  speedSelect.addEventListener("change", function () { if (timer !== null) { stop(); play(); } });
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t === slider || (t && (t.tagName === "SELECT" || t.tagName === "INPUT" || t.tagName === "TEXTAREA"))) { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) { stop(); show(at + keys[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { stop(); show(0); e.preventDefault(); }
    else if (e.key === "End") { stop(); show(whole.length - 1); e.preventDefault(); }
    else if (e.key === " " && t === document.body) { play(); e.preventDefault(); }
  });

  // ------------------------------------------------------------ loading, and following live
  /* The header and the seats' table from a match document (its status, and once it has ended
     its ranks, scores and faults): a live match that ends shows its result without a reload. */
  function showResult(m) {
    if (!m || !m.status) { return; }
    var status = document.getElementById("match-status");
    if (status) {
      status.textContent = "";
      add(status, el("span", "status status-" + m.status, m.status));
    }
    var finished = document.getElementById("match-finished");
    if (finished && m.finished_at) {
      finished.textContent = "";
      var when = el("time", "", String(m.finished_at).slice(0, 16).replace("T", " "));
      when.setAttribute("datetime", m.finished_at);
      add(finished, when);
    }
    (m.seats || []).forEach(function (s) {
      var row = document.querySelector('.match-seats tr[data-seat="' + s.seat + '"]');
      if (!row) { return; }
      var cell = function (name) { return row.querySelector('[data-field="' + name + '"]'); };
      var none = function (v) { return v === null || v === undefined; };
      if (cell("rank")) { cell("rank").textContent = none(s.rank) ? "\u2013" : String(s.rank); }
      if (cell("score")) { cell("score").textContent = none(s.score) ? "\u2013" : Number(s.score).toFixed(1); }
      if (cell("fault")) {
        cell("fault").textContent = "";
        if (s.fault) { add(cell("fault"), el("span", "fault", s.fault)); }
      }
    });
  }
  /* The match's document now, from the replay's API (when an end came without it). */
  function fetchResult() {
    fetch("/api/matches/" + matchId + "/replay?view=public", { headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (doc) { if (doc) { showResult(doc.match); } })
      .catch(function () { /* the header keeps what it had */ });
  }

  function follow() {
    var note = document.getElementById("live-note");
    var source = new EventSource("/api/matches/" + matchId + "/live?after=" + frames.length +
                                 "&view=" + encodeURIComponent(root.dataset.view || "public"));
    source.addEventListener("frame", function (message) {
      var frame = JSON.parse(message.data);
      if (frame.step !== frames.length) { return; }  // a repeat after a reconnection
      var atEnd = at >= whole.length - 1;
      take(frame);
      if (atEnd) { show(whole.length - 1); } else { show(at); }
    });
    source.addEventListener("end", function (message) {
      source.close();
      ended = true;
      var end = JSON.parse(message.data);
      if (end.match) { showResult(end.match); } else { fetchResult(); }
      show(at);
      if (note) {
        note.textContent = "";
        note.className = "ended-note";
        add(note, "The match is " + end.status + ". " + (end.reason ? end.reason + " " : ""),
            add(el("a", "", "Open the full replay"), null));
        var link = note.querySelector("a");
        link.href = "/matches/" + matchId;
        link.id = "full-replay";
      }
    });
  }

  fetch(root.dataset.api, { headers: { Accept: "application/json" } })
    .then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) { throw new Error(body.error || response.statusText); }
        return body;
      });
    })
    .then(function (doc) {
      header = doc;
      doc.frames.forEach(take);
      if (doc.final) {
        ended = true;
        if (live) { showResult(doc.match); }  // it ended between the page and its frames
        live = false;
      }
      var asked = stepAsked();
      show(asked !== null ? asked : live ? whole.length - 1 : 0);  // show() keeps it in range
      if (live) { follow(); }
    })
    .catch(function (err) {
      counter.textContent = "could not load the replay: " + err.message;
    });
})();
