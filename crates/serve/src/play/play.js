// arena serve --play: the play page's behaviour (docs/PLAY.md; the API is
// the server's, crates/serve/src/play/). This file owns the new-game form
// (POST /play/new), the game's state as the server sends it (Server-Sent
// Events), the board drawn by board.js with each cell a <button>, Quinque's
// actions per cell, the clocks, the status line, hints on the board (POST
// hints), leaving (the button, and on pagehide), and after the end "play
// again", the viewer's link and the analysis strip (POST analysis). The
// server holds the rules: the page offers exactly the state's `legal` moves,
// sends the one chosen, and never applies a move itself.
"use strict";
(function () {
  const setup = JSON.parse(document.getElementById("setup").textContent);
  const $ = (id) => document.getElementById(id);
  const variants = new Map(setup.variants.map((v) => [v.id, v]));
  const bots = new Map(setup.bots.map((b) => [b.name, b]));
  const PERSON = "person";
  const VALUE_LETTER = { win: "W", draw: "D", loss: "L", unknown: "?" };
  const VALUE_RANK = { win: 0, draw: 1, unknown: 2, loss: 3 };

  // The game shown: null before the first. `settings` are the form's (for
  // "play again"), `state` the server's latest, `received` when it came.
  let game = null;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function setStatus(text) { $("status").textContent = text; }
  function other(side) { return side === "white" ? "black" : "white"; }

  // ---- talking to the server ----

  // POST `path` with the page's token: { ok, status, body } (body: the
  // JSON answer, or { error } when the answer was not JSON or never came).
  async function post(path, body, keepalive) {
    const init = { method: "POST", headers: { "content-type": "application/json", "x-arena-token": setup.token },
      body: JSON.stringify(body || {}), cache: "no-store", keepalive: !!keepalive };
    try {
      const answer = await fetch(path, init);
      const text = await answer.text();
      let parsed;
      try { parsed = JSON.parse(text); } catch (e) { parsed = { error: text.trim() || answer.statusText }; }
      return { ok: answer.ok, status: answer.status, body: parsed };
    } catch (e) {
      return { ok: false, status: 0, body: { error: "no answer from the server (" + e.message + ")" } };
    }
  }
  function gamePath(what) { return "/play/game/" + encodeURIComponent(game.id) + "/" + what; }

  // ---- the form ----

  function fillForm() {
    setup.variants.forEach((v) => $("variant").appendChild(el("option", { value: v.id }, variantName(v.id))));
    setup.bots.forEach((b) => $("opponent").appendChild(el("option", { value: "bot:" + b.name }, b.name)));
    $("opponent").appendChild(el("option", { value: PERSON }, "a person (two players at this screen)"));
    setup.time_controls.forEach((t) => $("tc").appendChild(el("option", { value: t.value }, t.label)));
    const minutes = Math.round(setup.idle_ms / 60000);
    $("limits").textContent = "A person has " + (minutes >= 1 ? minutes + " min" : setup.idle_ms / 1000 + " s") +
      " for each move; past it, or when the page is closed, the game is lost on time. At most " +
      setup.max_live + " games are played at once.";
    $("opponent").addEventListener("change", formChanged);
    $("new-game").addEventListener("submit", (e) => { e.preventDefault(); startFromForm(); });
    formChanged();
  }
  // The opponent chosen: { bot: name } or { person: true }.
  function opponent() {
    const v = $("opponent").value;
    return v === PERSON ? { person: true } : { bot: v.slice(4) };
  }
  function formChanged() {
    const them = opponent(), two = !!them.person;
    $("name2").hidden = $("name2-label").hidden = !two;
    $("name-label").textContent = two ? "First person's name" : "Your name";
    $("colour-label").textContent = two ? "First person's colour" : "Your colour";
    const own = them.bot && bots.get(them.bot).time_control;
    $("tc").disabled = !!own || two;
    $("tc-note").textContent = own ? them.bot + " always plays at " + own
      : two ? "people are not timed but for the limit per move below" : "";
  }
  function readForm() {
    return { variant: $("variant").value, opponent: opponent(), colour: $("colour").value, tc: $("tc").value,
      name: $("name").value.trim() || "human", name2: $("name2").value.trim() || "human-2" };
  }
  // The body of POST /play/new for `settings`, or an Error saying why not.
  function newGameBody(s) {
    if (s.opponent.person && s.name === s.name2) {
      return new Error("the two people need two different names (both are \"" + s.name + "\"): change one");
    }
    if (s.opponent.bot && s.name === s.opponent.bot) {
      return new Error("your name is the bot's (\"" + s.name + "\"): choose another");
    }
    const colour = s.colour === "random" ? (Math.random() < 0.5 ? "white" : "black") : s.colour;
    const first = { person: s.name };
    const second = s.opponent.person ? { person: s.name2 } : { bot: s.opponent.bot };
    const body = { variant: s.variant, time_control: s.tc };
    body[colour] = first;
    body[other(colour)] = second;
    return body;
  }
  function startFromForm() { start(readForm()); }
  async function start(settings) {
    const body = newGameBody(settings);
    $("form-error").textContent = "";
    $("game-error").textContent = "";
    if (body instanceof Error) { showForm(); $("form-error").textContent = body.message; return; }
    $("start").disabled = $("again").disabled = true;
    const answer = await post("/play/new", body);
    $("start").disabled = $("again").disabled = false;
    if (!answer.ok) {
      showForm();
      $("form-error").textContent = answer.body.error || "the server refused (" + answer.status + ")";
      setStatus("no game: " + $("form-error").textContent);
      return;
    }
    open(answer.body.game_id, settings);
  }
  function showForm() {
    $("setup-section").hidden = false;
    if (!game || isOver()) setStatus("Choose a game and press Start.");
  }

  // ---- one game ----

  function open(id, settings) {
    close();
    game = { id: id, settings: settings, state: null, received: 0, events: null, hints: null,
      selected: null, pending: false, analysed: false, focus: true };
    $("setup-section").hidden = true;
    $("game").hidden = false;
    $("after").hidden = true;
    $("analysis").textContent = "";
    $("moves").textContent = "";
    $("board").textContent = "";
    // Nothing of the game before stays: not its turn, not its ply.
    delete $("board").dataset.turn;
    delete $("board").dataset.ply;
    $("hint-box").hidden = true;
    $("game-title").textContent = id;
    $("game").dataset.game = id;
    $("viewer-link").href = setup.viewer + "#game=" + encodeURIComponent(id);
    setStatus(id + ": starting…");
    $("board").focus();
    listen();
  }
  function listen() {
    const url = gamePath("events") + "?token=" + encodeURIComponent(setup.token);
    const events = new EventSource(url);
    game.events = events;
    events.addEventListener("state", (e) => {
      if (game && game.events === events) onState(JSON.parse(e.data));
    });
    events.addEventListener("error", () => {
      if (!game || game.events !== events || isOver()) return;
      $("game-error").textContent = events.readyState === EventSource.CLOSED
        ? "the server closed this game's connection"
        : "connection to the server lost; retrying…";
    });
    events.addEventListener("open", () => { $("game-error").textContent = ""; });
  }
  function close() {
    if (game && game.events) game.events.close();
    if (game) game.events = null;
  }
  function isOver() { return !!(game && game.state && game.state.over); }
  // A person may move now (not while a bot's program is still starting).
  function personToMove(s) { return !!(s && !s.over && !s.starting && s.to_move && s[s.to_move].kind === PERSON); }

  function onState(s) {
    const before = game.state;
    if (!before || before.moves.length !== s.moves.length) {
      game.hints = null;
      game.selected = null;
      game.pending = false;
    }
    game.state = s;
    game.received = performance.now();
    if (s.error) $("game-error").textContent = "arena failed: " + s.error + " (the game is not recorded)";
    render();
    if (s.over) ended();
  }
  function render() {
    const s = game.state;
    $("game-title").textContent = title(s);
    renderBoard(s);
    renderActions();
    renderClocks();
    renderMoves(s);
    renderHintList();
    setStatus(statusText(s));
    $("hints").disabled = !personToMove(s) || game.pending || game.hints !== null;
    $("leave").disabled = s.over;
    $("hints").hidden = $("leave").hidden = s.over;
  }
  function title(s) {
    return s.game_id + ": " + s.white.name + " (white) vs " + s.black.name + " (black) · " +
      variantName(s.variant) + " · " + s.time_control;
  }
  // A variant as the page names it: its id, after its name when it has one.
  function variantName(id) {
    const v = variants.get(id);
    return !v || !v.name || v.name === id ? id : v.name + " (" + id + ")";
  }
  function who(s, side) { return side + " (" + s[side].name + ")"; }
  // The status line: whose turn and what they are doing, or the result.
  function statusText(s) {
    if (s.over && !s.result) return s.game_id + " stopped without a result: " + (s.error || "the server gave no reason");
    if (s.over) return s.result + " " + s.reason + (s.message ? ": " + s.message : "");
    const side = s.to_move;
    if (!side) return s.game_id + ": the game has ended; recording it…";
    if (s.starting) {
      const bot = s[side].kind === PERSON ? other(side) : side;
      return who(s, bot) + " is starting…";
    }
    if (s[side].kind === PERSON) return who(s, side) + " to move";
    if (s.thinking === side) return who(s, side) + " is thinking…";
    return who(s, side) + " to move";
  }

  // ---- the board ----

  // The legal moves by the cell they belong to: a cell's name is the move
  // in Qango; a Quinque move belongs to the first cell it names (`place
  // c3`, `capture b2 a1`: the cell it takes is b2).
  function movesByCell(legal) {
    const by = new Map();
    for (const move of legal) {
      const words = move.split(" "), cell = words.length > 1 ? words[1] : words[0];
      if (!by.has(cell)) by.set(cell, []);
      by.get(cell).push(move);
    }
    return by;
  }
  // The board of state `s`: drawn by board.js, each cell's content put in
  // a button. The buttons stay from state to state (only their content,
  // marks and moves change), so a click or the focus is never lost to a
  // redraw; a new game draws them anew.
  function renderBoard(s) {
    const box = $("board");
    const focused = box.contains(document.activeElement) ? document.activeElement : null;
    const look = variants.get(s.variant).look;
    const drawn = arenaBoard.table(look, s.board.codes, {
      last: new Set(s.board.last || []), opening: new Set(s.board.opening || []),
      win: new Set(s.over ? s.cells || [] : []), first: s.moves.length === 0, cls: "play-board",
    });
    const table = box.querySelector("table.board");
    if (!table || box.dataset.game !== s.game_id) {
      drawn.querySelectorAll("td[data-cell]").forEach(cellButton);
      box.textContent = "";
      box.appendChild(drawn);
      box.dataset.game = s.game_id;
      arenaBoard.legend($("legend"), look, (s.board.opening || []).length > 0);
    } else {
      const cells = table.querySelectorAll("td[data-cell]");
      drawn.querySelectorAll("td[data-cell]").forEach((td, i) => syncCell(cells[i], td));
    }
    const byCell = movesByCell(personToMove(s) && !game.pending ? s.legal : []);
    box.querySelectorAll("button.cell").forEach((b) => offer(b, byCell.get(b.dataset.cell) || []));
    box.dataset.ply = String(s.moves.length);
    box.dataset.turn = personToMove(s) ? "person" : s.over ? "over" : "bot";
    const keep = focused && !focused.disabled && focused !== box;
    if ((focused || game.focus) && !keep && !game.selected) refocus(focused && focused.dataset.cell || game.lastCell);
    game.focus = false;
  }
  // Puts board.js's cell `td`'s content into a button named by the cell.
  function cellButton(td) {
    const name = td.dataset.cell;
    const b = el("button", { type: "button", class: "cell", "aria-label": name, "data-cell": name });
    while (td.firstChild) b.appendChild(td.firstChild);
    td.removeAttribute("title");
    td.appendChild(b);
  }
  // The cell `td` as board.js drew it anew in `drawn`: its marks, its content.
  function syncCell(td, drawn) {
    td.className = drawn.className;
    td.dataset.content = drawn.dataset.content;
    const b = td.querySelector("button.cell");
    b.textContent = "";
    while (drawn.firstChild) b.appendChild(drawn.firstChild);
  }
  // The cell button `b` offers `moves` (none: disabled), with their hints.
  function offer(b, moves) {
    const name = b.dataset.cell;
    b.disabled = moves.length === 0;
    b.title = name + (moves.length ? ": " + moves.join(", ") : "");
    b.classList.toggle("legal", moves.length > 0);
    b.classList.toggle("selected", game.selected === name);
    [...b.classList].filter((c) => c.startsWith("hint-")).forEach((c) => b.classList.remove(c));
    delete b.dataset.hint;
    b.querySelectorAll(".badge").forEach((badge) => badge.remove());
    markHint(b, moves);
  }
  // The focus goes back where it was: the same cell, else the next one
  // that can be played, else the board.
  function refocus(name) {
    const buttons = [...$("board").querySelectorAll("button.cell")];
    const at = Math.max(0, buttons.findIndex((b) => b.dataset.cell === name));
    const order = buttons.slice(at).concat(buttons.slice(0, at));
    const next = order.find((b) => !b.disabled);
    if (next) next.focus();
    else $("board").focus();
  }
  // A cell clicked (or Enter/Space on it: `byKeyboard`): a Qango move is
  // played at once, a Quinque cell shows its actions.
  function cellClicked(name, byKeyboard) {
    const moves = movesByCell(personToMove(game.state) && !game.pending ? game.state.legal : []).get(name) || [];
    if (moves.length === 0) return;
    game.lastCell = name;
    game.focus = byKeyboard;
    if (moves.length === 1 && moves[0] === name) { play(name); return; }
    game.selected = name;
    render();
    const first = $("actions-list").querySelector("button");
    if (first) first.focus();
  }
  async function play(move) {
    if (game.pending) return;
    game.pending = true;
    game.selected = null;
    const id = game.id, ply = game.state.moves.length;
    render();
    // The ply the move is for: the server refuses it in another position.
    const answer = await post(gamePath("move"), { move: move, ply: ply });
    if (!game || game.id !== id) return;
    if (!answer.ok) {
      game.pending = false;
      $("game-error").textContent = answer.body.error || "the move was refused (" + answer.status + ")";
      render();
    }
  }

  // ---- Quinque's actions of the selected cell ----

  // The actions of the selected cell, as buttons (kept while they stay the
  // same, so that a state arriving never takes a click).
  function renderActions() {
    const box = $("actions"), list = $("actions-list"), s = game.state;
    const moves = game.selected ? movesByCell(s.legal).get(game.selected) || [] : [];
    box.hidden = moves.length === 0 || !personToMove(s) || game.pending;
    const key = box.hidden ? "" : s.moves.length + "|" + moves.join(",") + "|" + (game.hints instanceof Map);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.textContent = "";
    if (box.hidden) return;
    $("actions-title").textContent = game.selected + ":";
    for (const move of moves) {
      const b = el("button", { type: "button", class: "action", "aria-label": move, "data-move": move }, move);
      markHint(b, [move]);
      b.addEventListener("click", (e) => { game.focus = e.detail === 0; play(move); });
      list.appendChild(b);
    }
  }
  function closeActions() {
    const name = game && game.selected;
    if (!name) return;
    game.selected = null;
    render();
    const b = $("board").querySelector('button.cell[data-cell="' + name + '"]');
    if (b && !b.disabled) b.focus();
  }

  // ---- clocks ----

  function clockText(ms) {
    if (ms >= 60000) {
      const s = Math.ceil(ms / 1000);
      return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    }
    return (Math.max(0, ms) / 1000).toFixed(1) + " s";
  }
  // Each side's time for its move; the side to move's counts down from the
  // moment the state came (not while a bot's program starts).
  function renderClocks() {
    if (!game || !game.state) return;
    const s = game.state;
    for (const side of ["white", "black"]) {
      const box = $("clock-" + side), player = s[side];
      const running = !s.over && s.to_move === side && !s.starting;
      let left = s.clocks[side].left_ms;
      if (running) left -= performance.now() - game.received;
      box.querySelector(".who").textContent = side + ": " + player.name + (player.kind === PERSON ? "" : " (bot)");
      box.querySelector(".time").textContent = clockText(left);
      box.querySelector(".note").textContent = clockNote(s, side);
      box.classList.toggle("running", running);
      box.classList.toggle("thinking", s.thinking === side);
      box.classList.toggle("low", running && left < 10000);
    }
  }
  function clockNote(s, side) {
    if (s.over) return !s.result ? "" : s.result === "1/2-1/2" ? "draw" : (s.result === "1-0") === (side === "white") ? "won" : "lost";
    if (s.starting && s[side].kind !== PERSON) return "starting…";
    if (s.to_move !== side) return "";
    if (s.starting) return "to move once the bot has started";
    if (s[side].kind !== PERSON) return s.thinking === side ? "thinking…" : "to move";
    return "to move";
  }
  setInterval(renderClocks, 100);

  function renderMoves(s) {
    const list = $("moves");
    list.textContent = "";
    s.moves.forEach((m, i) => {
      const li = el("li", { class: i % 2 ? "black" : "white" }, m);
      if (i === s.moves.length - 1) li.classList.add("current");
      list.appendChild(li);
    });
    list.scrollTop = list.scrollHeight;
  }

  // ---- hints ----

  async function askHints() {
    const s = game.state;
    if (!personToMove(s) || game.hints) return;
    const id = game.id, ply = s.moves.length;
    game.hints = "asking";
    render();
    const answer = await post(gamePath("hints"), {});
    if (!game || game.id !== id || game.state.moves.length !== ply) return;
    if (!answer.ok || answer.body.ply !== ply) {
      game.hints = null;
      $("game-error").textContent = answer.body.error || "no hints for this position";
    } else {
      game.hints = new Map(answer.body.moves.map((m) => [m.move, m.value]));
      game.hintBudget = answer.body.budget_ms;
    }
    render();
  }
  // The best value for the mover among `moves` (a cell's), if hints are shown.
  function hintOf(moves) {
    if (!(game.hints instanceof Map)) return null;
    let best = null;
    for (const m of moves) {
      const v = game.hints.get(m);
      if (v && (best === null || VALUE_RANK[v] < VALUE_RANK[best])) best = v;
    }
    return best;
  }
  function markHint(button, moves) {
    const v = hintOf(moves);
    if (!v) return;
    button.classList.add("hint-" + v);
    button.dataset.hint = v;
    button.appendChild(el("span", { class: "badge", "aria-hidden": "true" }, VALUE_LETTER[v]));
    button.title += " (hint: " + v + " for " + game.state.to_move + ")";
  }
  function renderHintList() {
    const box = $("hint-box"), list = $("hint-list");
    list.textContent = "";
    if (game.hints === "asking") {
      box.hidden = false;
      $("hint-head").textContent = "asking the solver…";
      return;
    }
    box.hidden = !(game.hints instanceof Map);
    if (box.hidden) return;
    const s = game.state;
    $("hint-head").textContent = "Each move's value for " + who(s, s.to_move) + " under perfect play (the solver had " +
      game.hintBudget + " ms a move; unknown: not proven within it):";
    const moves = [...game.hints.entries()].sort((a, b) => VALUE_RANK[a[1]] - VALUE_RANK[b[1]]);
    for (const [move, value] of moves) {
      const li = el("li", { class: "hint-" + value, "data-move": move, "data-hint": value });
      li.appendChild(el("span", { class: "badge", "aria-hidden": "true" }, VALUE_LETTER[value]));
      li.appendChild(document.createTextNode(" " + move + ": " + value));
      list.appendChild(li);
    }
  }

  // ---- the end ----

  function ended() {
    close();
    $("after").hidden = false;
    $("hint-box").hidden = true;
    if (!game.analysed && game.state.result) {
      game.analysed = true;
      $("analysis").textContent = "analysing the game against perfect play…";
      // The record is kept a moment after the state says the game is over.
      const id = game.id;
      setTimeout(() => analyse(id, 0), 250);
    }
  }
  const VALUE_TEXT = { W: "white wins", B: "black wins", D: "draw", "?": "unknown (not proven within the budget)", "-": "not analysed" };
  async function analyse(id, tries) {
    const box = $("analysis");
    const answer = await post("/play/game/" + encodeURIComponent(id) + "/analysis", {});
    if (!game || game.id !== id) return;
    if (answer.status === 409 && tries < 10) { setTimeout(() => analyse(id, tries + 1), 500); return; }
    if (!answer.ok) { box.textContent = "no analysis: " + (answer.body.error || answer.status); return; }
    drawStrip(box, answer.body);
  }
  // The value strip as the report's viewer draws it: one cell per position
  // (after p moves), the value for white; lowercase: the move into it was a
  // mistake. Each cell links to the viewer at that position.
  function drawStrip(box, analysis) {
    box.textContent = "";
    box.appendChild(el("h3", {}, "Perfect play, move by move"));
    const strip = el("div", { class: "strip", id: "strip" });
    const moves = game.state.moves;
    for (let p = 0; p < analysis.strip.length; p++) {
      const c = analysis.strip[p], up = c.toUpperCase(), mistake = c !== up;
      const cls = ["v", "v-" + (up === "?" ? "unknown" : up === "-" ? "none" : up)];
      if (mistake) cls.push("mistake");
      const tip = "ply " + p + ": " + VALUE_TEXT[up] + (mistake ? "; move " + p + " (" + moves[p - 1] + ") was a mistake" : "");
      strip.appendChild(el("a", { class: cls.join(" "), "data-ply": String(p), "data-value": c, title: tip,
        href: setup.viewer + "#game=" + encodeURIComponent(game.id) + "&ply=" + p }, mistake ? "✗" : ""));
    }
    box.appendChild(strip);
    box.appendChild(el("p", { class: "note" }, "One cell per position, its value for white: light white wins, dark black wins, blue-grey draw, hatched unknown; ✗ the move into it was a mistake."));
    const mistakes = analysis.rows.filter((r) => r.mistake);
    const list = el("ul", { id: "mistakes" });
    mistakes.forEach((r) => list.appendChild(el("li", {}, "move " + r.ply + ", " + r.mover + " (" + r.color + ") " + r.move +
      ": " + r.before + " → " + r.after)));
    box.appendChild(el("p", {}, mistakes.length ? "Mistakes (the mover's value before → after):" : "No mistakes."));
    if (mistakes.length) box.appendChild(list);
  }

  // ---- leaving ----

  async function leave() {
    if (!game || isOver()) return;
    $("leave").disabled = true;
    const answer = await post(gamePath("leave"), {});
    if (!answer.ok) $("game-error").textContent = answer.body.error || "could not leave (" + answer.status + ")";
  }
  window.addEventListener("pagehide", () => {
    if (game && !isOver()) post(gamePath("leave"), {}, true);
  });

  // ---- controls ----

  $("board").addEventListener("click", (e) => {
    const b = e.target.closest("button.cell");
    if (b && !b.disabled && game) cellClicked(b.dataset.cell, e.detail === 0);
  });
  $("hints").addEventListener("click", askHints);
  $("leave").addEventListener("click", leave);
  $("again").addEventListener("click", () => start(game.settings));
  $("new").addEventListener("click", () => { showForm(); $("variant").focus(); });
  $("actions-close").addEventListener("click", closeActions);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && game && game.selected) { e.preventDefault(); closeActions(); }
  });
  $("large").addEventListener("click", () => large(!document.body.classList.contains("large")));
  function large(on) {
    document.body.classList.toggle("large", on);
    $("large").setAttribute("aria-pressed", String(on));
  }
  const params = new URLSearchParams(location.search);
  if (params.has("large") || params.has("projector")) large(true);
  $("results").href = setup.viewer;
  fillForm();
  setStatus("Choose a game and press Start.");
})();
