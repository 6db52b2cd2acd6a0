// arena report: the game list (filters) and the board viewer.
// Game lines come from the rules engine, replayed in Rust into per-ply cell
// diffs (see src/report/html/moves.rs): this script never applies moves.
"use strict";
(function () {
  // The page's data and game lines, read again by `reload` when `arena
  // serve` has swapped in a newer page's (the list then shows the new games).
  let data, F, raw, games, byKey;
  function load() {
    data = JSON.parse(document.getElementById("page-data").textContent);
    F = {};
    data.fields.forEach((name, i) => { F[name] = i; });
    raw = document.getElementById("game-lines").textContent.split("\n").filter((l) => l.length > 0);
    // The first 8 fields of every game (what the list filters on); the rest is split on demand.
    games = raw.map((line, i) => {
      const f = line.split("\t", 8);
      return { i: i, key: dec(f[F.key]), dir: +f[F.dir], variant: variantId(f[F.variant]), white: +f[F.white],
        black: +f[F.black], result: RESULTS[f[F.result]] || f[F.result], reason: text(f[F.reason]), plies: +f[F.plies] };
    });
    // Listed by game id (directory first), g2 before g10, whatever order
    // the games finished in (the order of the lines).
    const gameId = (key) => +key.slice(key.lastIndexOf("g") + 1);
    games.sort((a, b) => a.dir - b.dir || gameId(a.key) - gameId(b.key));
    byKey = new Map(games.map((g) => [g.key, g]));
  }
  // The compact fields of a game line (src/report/html/moves.rs).
  const RESULTS = { "1": "1-0", "0": "0-1", "=": "1/2-1/2" };
  const ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  function variantId(s) { return /^[0-9]+$/.test(s) ? data.variant_ids[+s] : dec(s).replace(/\?$/, ""); }
  // A repeated text is `#K`, the K-th of the page's table.
  function text(s) { return s[0] === "#" ? data.texts[+s.slice(1)] : dec(s); }
  // Cells of the board: `@` and an index character each, else names joined by `,`.
  function cellNames(s, v) {
    if (s === "") return [];
    if (s[0] !== "@") return s.split(",").map(dec);
    return [...s.slice(1)].map((c) => { const i = ALPHA.indexOf(c); return String.fromCharCode(97 + i % v.cols) + (Math.floor(i / v.cols) + 1); });
  }
  // Base-32 digits, those before a number's last 32 places further.
  function numbers(s) {
    const out = [];
    let n = 0;
    for (const c of s) {
      const d = ALPHA.indexOf(c);
      n = n * 32 + (d & 31);
      if (d < 32) { out.push(n); n = 0; }
    }
    return out;
  }
  // `=`: each ply put the mover's disc on the move's cell.
  function diffList(s, moves, v) {
    if (s === "") return [];
    if (s !== "=") return s.split(" ");
    return moves.map((m, p) => ALPHA[(+m.slice(1) - 1) * v.cols + m.charCodeAt(0) - 97] + (p % 2 ? "4" : "1"));
  }
  load();
  const LIMIT = 500;

  function dec(s) { return s.indexOf("%") < 0 ? s : decodeURIComponent(s); }
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const $ = (id) => document.getElementById(id);

  // ---- filters and list ----
  const fBot = $("f-bot"), fColour = $("f-colour"), fResult = $("f-result"), fReason = $("f-reason");
  // The choices of the bot and reason filters (the first, "any", stays),
  // keeping what is chosen.
  function fillFilters() {
    const bot = fBot.value === "" ? "" : data.bots[+fBot.value], reason = fReason.value;
    [fBot, fReason].forEach((s) => { while (s.options.length > 1) s.remove(1); });
    data.bots.forEach((b, i) => fBot.appendChild(el("option", { value: String(i) }, b)));
    const reasons = [...new Set(games.map((g) => g.reason))].sort();
    reasons.forEach((r) => fReason.appendChild(el("option", { value: r }, r)));
    const place = data.bots.indexOf(bot);
    fBot.value = place >= 0 ? String(place) : "";
    fReason.value = reasons.includes(reason) ? reason : "";
  }
  fillFilters();

  function botScore(g, bot) {
    if (g.result === "1/2-1/2") return "draw";
    const whiteWon = g.result === "1-0";
    return (g.white === bot) === whiteWon ? "win" : "loss";
  }
  function matches(g) {
    const bot = fBot.value === "" ? -1 : +fBot.value;
    if (bot >= 0 && g.white !== bot && g.black !== bot) return false;
    if (fColour.value && bot >= 0 && (fColour.value === "white") !== (g.white === bot)) return false;
    if (fColour.value && bot < 0) { /* colour without a bot: no restriction */ }
    const r = fResult.value;
    if (r === "win" || r === "loss" || r === "draw") {
      if (bot >= 0) { if (botScore(g, bot) !== r) return false; }
      else if (r === "draw" && g.result !== "1/2-1/2") return false;
    } else if (r && g.result !== r) return false;
    if (fReason.value && g.reason !== fReason.value) return false;
    return true;
  }
  function renderList() {
    const body = document.querySelector("#games tbody");
    body.textContent = "";
    let n = 0;
    for (const g of games) {
      if (!matches(g)) continue;
      n++;
      if (n > LIMIT) continue;
      const tr = el("tr", { "data-key": g.key });
      [g.key, g.variant, data.bots[g.white], data.bots[g.black], g.result, g.reason, String(g.plies)]
        .forEach((t, i) => tr.appendChild(el("td", i >= 1 && i <= 3 ? { class: "name" } : {}, t)));
      tr.addEventListener("click", () => openGame(g, g.plies));
      body.appendChild(tr);
    }
    $("list-count").textContent = n + " of " + games.length + " games match";
    $("list-more").textContent = n > LIMIT ? "Showing the first " + LIMIT + "; narrow the filters to see the rest." : "";
  }
  [fBot, fColour, fResult, fReason].forEach((s) => s.addEventListener("change", renderList));

  // ---- viewer ----
  let cur = null; // { g, f (all fields), diffs, ply, plies }
  function openGame(g, ply) {
    // Empty fields at the end of a line are left out.
    const f = raw[g.i].split("\t");
    while (f.length < data.fields.length) f.push("");
    const v = data.variants[g.variant];
    const moves = cellNames(f[F.moves], v), cells = cellNames(f[F.cells], v);
    const diffs = diffList(f[F.diffs], moves, v);
    let message = f[F.message];
    message = message[0] === "*" ? text(message.slice(1)) + " " + cells.join(" ") : text(message);
    cur = { g: g, f: f, v: v, diffs: diffs, plies: diffs.length, moves: moves,
      times: numbers(f[F.times]), cells: new Set(cells), values: f[F.values] || "" };
    $("v-title").textContent = g.key + ": " + data.bots[g.white] + " (white) vs " + data.bots[g.black] + " (black), " + g.variant;
    $("v-result").textContent = g.result + " by " + g.reason + (message ? " — " + message : "");
    const logs = $("v-logs");
    logs.textContent = "";
    // A log exists only when the bot wrote to stderr (files are created on
    // the first byte); a trace only when the bot was traced. Their file
    // names, in the directory's logs/: white's log, black's, white's trace,
    // black's.
    const names = (f[F.links] || "|||").split("|");
    // A log named as the referee names it is `=`: `g7-white-NAME.log`.
    const link = (name, side, bot) => (data.dirs[g.dir] || {}).logs +
      (name === "=" ? g.key.slice(g.key.lastIndexOf("g")) + "-" + side + "-" + data.bots[bot] + ".log" : dec(name));
    [["white", names[0], names[2], g.white], ["black", names[1], names[3], g.black]]
      .forEach(([side, log, trace, bot]) => {
        const line = el("span", { class: "logs-" + side }, data.bots[bot] + " (" + side + "): ");
        if (log) line.appendChild(el("a", { href: link(log, side, bot), class: "log-" + side }, "stderr log"));
        else line.appendChild(document.createTextNode("no stderr log (it wrote nothing)"));
        if (trace) {
          line.appendChild(document.createTextNode(" · "));
          line.appendChild(el("a", { href: link(trace), class: "trace-" + side }, "wire trace"));
        }
        logs.appendChild(line);
        logs.appendChild(el("br"));
      });
    const list = $("v-moves");
    list.textContent = "";
    cur.opening = +f[F.opening];
    cur.moves.forEach((m, i) => {
      const opening = i < cur.opening;
      const li = el("li", opening ? { class: "opening", title: "opening move: from the run's openings, not chosen by the bot" } : {}, m);
      if (opening) li.appendChild(el("span", { class: "tag" }, "opening"));
      li.addEventListener("click", () => show(i + 1));
      list.appendChild(li);
    });
    legend(v, cur.opening > 0);
    $("viewer").hidden = false;
    show(Math.max(0, Math.min(ply, cur.plies)));
  }
  function closeViewer() {
    $("viewer").hidden = true;
    cur = null;
    history.replaceState(null, "", "#list");
  }
  function timeText(ply) {
    if (ply === 0) return "";
    const ms = cur.times[ply - 1];
    const opening = cur.opening;
    if (ply <= opening) return "opening move " + ply + " of " + opening + " (from the run's openings, not chosen by the bot)";
    const tc = (data.dirs[cur.g.dir] || {}).time_control;
    let limit = "";
    if (tc && tc.type === "per_move") limit = " of " + tc.move_ms + " ms";
    else if (tc && tc.type === "clock") {
      let used = 0, own = 0;
      for (let p = ply - 1; p >= 0; p -= 2) { used += cur.times[p] || 0; if (p >= opening) own++; }
      limit = "; clock left " + (tc.base_ms + tc.increment_ms * own - used) + " ms of " + tc.base_ms + " + " + tc.increment_ms;
    }
    return "move time: " + (ms === undefined ? "?" : ms) + " ms" + limit;
  }
  function show(ply) {
    const v = cur.v;
    cur.ply = ply;
    const rows = v.rows, cols = v.cols;
    const codes = new Array(rows * cols).fill("0");
    // The ply that last changed each cell, to mark what the opening placed.
    const changed = new Array(rows * cols).fill(0);
    let last = new Set();
    for (let p = 0; p < ply; p++) {
      const d = cur.diffs[p];
      last = new Set();
      for (let k = 0; k + 1 < d.length; k += 2) {
        const idx = ALPHA.indexOf(d[k]);
        codes[idx] = d[k + 1];
        changed[idx] = p + 1;
        last.add(idx);
      }
    }
    const opening = new Set();
    changed.forEach((p, i) => { if (p > 0 && p <= cur.opening) opening.add(i); });
    const win = ply === cur.plies ? cur.cells : new Set();
    const table = arenaBoard.table(v, codes, { last: last, opening: opening, win: win, first: ply === 0 });
    table.dataset.ply = String(ply);
    const board = $("v-board");
    board.textContent = "";
    board.appendChild(table);
    $("v-ply").textContent = "ply " + ply + " / " + cur.plies;
    $("v-move").textContent = ply > 0
      ? "last move: " + cur.moves[ply - 1] + " (" + (ply % 2 ? "white" : "black") + (ply <= cur.opening ? ", opening" : "") + ")"
      : "start position";
    $("v-time").textContent = timeText(ply);
    valueStrip(ply);
    [...$("v-moves").children].forEach((li, i) => li.classList.toggle("current", i === ply - 1));
    history.replaceState(null, "", "#game=" + encodeURIComponent(cur.g.key) + "&ply=" + ply);
  }
  // Each position's value under perfect play (from `arena analyse`), as a
  // strip of cells under the board, one per ply: the value for white of the
  // position after that many moves; a lowercase letter marks a mistake (the
  // move into the position made its mover's value worse).
  const VALUE_TEXT = { W: "white wins", B: "black wins", D: "draw", "?": "unknown (not proven within the budget)", "-": "not analysed (opening)" };
  function valueStrip(ply) {
    const box = $("v-values");
    box.textContent = "";
    box.hidden = cur.values === "";
    if (box.hidden) return;
    const strip = el("div", { class: "strip" });
    for (let p = 0; p <= cur.plies; p++) {
      const c = cur.values[p] || "-", up = c.toUpperCase(), mistake = c !== up;
      const cls = ["v", "v-" + (up === "?" ? "unknown" : up === "-" ? "none" : up)];
      if (mistake) cls.push("mistake");
      if (p === ply) cls.push("current");
      const title = "ply " + p + ": " + VALUE_TEXT[up] + (mistake ? "; move " + p + " (" + cur.moves[p - 1] + ") was a mistake" : "");
      const cell = el("span", { class: cls.join(" "), "data-ply": String(p), "data-value": c, title: title }, mistake ? "✗" : "");
      cell.addEventListener("click", () => show(p));
      strip.appendChild(cell);
    }
    box.appendChild(strip);
    const c = cur.values[ply] || "-", up = c.toUpperCase();
    box.appendChild(el("p", { class: "value-text" }, "perfect play: " + VALUE_TEXT[up] + (c !== up ? " — the last move was a mistake" : "")));
  }
  // The legend of the board (board.js): the variant's cell kinds (named
  // as `arena show` names them), the discs, and the marks.
  function legend(v, opening) { arenaBoard.legend($("v-legend"), v, opening); }
  $("v-first").addEventListener("click", () => show(0));
  $("v-prev").addEventListener("click", () => show(Math.max(0, cur.ply - 1)));
  $("v-next").addEventListener("click", () => show(Math.min(cur.plies, cur.ply + 1)));
  $("v-last").addEventListener("click", () => show(cur.plies));
  $("v-close").addEventListener("click", closeViewer);
  document.addEventListener("keydown", (e) => {
    if (!cur) return;
    if (e.key === "ArrowRight") show(Math.min(cur.plies, cur.ply + 1));
    else if (e.key === "ArrowLeft") show(Math.max(0, cur.ply - 1));
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(cur.plies);
    else if (e.key === "Escape") closeViewer();
    else return;
    e.preventDefault();
  });

  // ---- links: #game=KEY&ply=N, #list&bot=NAME&result=...&reason=... ----
  function route() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.has("game")) {
      const g = byKey.get(params.get("game"));
      if (g) openGame(g, params.has("ply") ? +params.get("ply") : g.plies);
      return;
    }
    if (params.has("list")) {
      $("viewer").hidden = true;
      cur = null;
      const bot = data.bots.indexOf(params.get("bot") || "");
      fBot.value = bot >= 0 ? String(bot) : "";
      fColour.value = params.get("colour") || "";
      fResult.value = params.get("result") || "";
      fReason.value = params.get("reason") || "";
      renderList();
      $("list").scrollIntoView();
    }
  }
  window.addEventListener("hashchange", route);

  // ---- a part of the games (report.html of a big run) ----
  function part() {
    const box = $("list-part"), counts = JSON.parse(($("games-part") || {}).textContent || "{}");
    if (!box) return;
    box.hidden = !(counts.left_out > 0);
    if (box.hidden) return;
    const dirs = data.dirs.map((d) => d.dir).join(" ");
    box.textContent = "This page lists " + counts.shown + " of the " + (counts.shown + counts.left_out) +
      " games (every game lost by a failure among them), so that it stays small; every section above counts all of them. " +
      "To list and view every game: arena serve " + dirs;
  }

  // ---- the crosstable of a big field: a heatmap, a pixel square per pair ----
  function heatmap() {
    const canvas = $("cross-heat"), heat = data.cross;
    if (!canvas || !heat) return;
    const n = heat.bots.length, size = Math.max(2, Math.min(8, Math.floor(800 / n)));
    canvas.width = canvas.height = n * size;
    const ctx = canvas.getContext("2d");
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const ch = heat.cells[r * n + c];
        ctx.fillStyle = r === c ? "#ddd" : ch === "." ? "#fff" : heatColour(ALPHA.indexOf(ch) / 60);
        ctx.fillRect(c * size, r * size, size, size);
      }
    }
    canvas.onmousemove = (e) => {
      const box = canvas.getBoundingClientRect(), scale = canvas.width / box.width;
      const c = Math.floor((e.clientX - box.left) * scale / size), r = Math.floor((e.clientY - box.top) * scale / size);
      if (r < 0 || c < 0 || r >= n || c >= n) return;
      const ch = heat.cells[r * n + c];
      $("cross-cell").textContent = "#" + (r + 1) + " " + data.bots[heat.bots[r]] + " against #" + (c + 1) + " " + data.bots[heat.bots[c]] + ": " +
        (r === c ? "-" : ch === "." ? "did not meet" : Math.round(ALPHA.indexOf(ch) / 60 * 100) + "% of the points");
    };
  }
  // As the crosstable's cells (sections.rs `heat`): red, white, green.
  function heatColour(s) {
    const t = s < 0.5 ? s / 0.5 : (s - 0.5) / 0.5;
    const [r, g, b] = s < 0.5 ? [230 + 25 * t, 110 + 145 * t, 110 + 145 * t] : [255 - 145 * t, 255 - 50 * t, 255 - 145 * t];
    return "rgb(" + Math.floor(r) + "," + Math.floor(g) + "," + Math.floor(b) + ")";
  }
  part();
  heatmap();
  renderList();
  route();
  // For `arena serve`: after it swapped in a newer page's data and game
  // lines, the list shows them (an open game stays open), and a link to a
  // game that was not there yet (the play page's, just finished) opens it.
  window.arenaReport = {
    reload: () => {
      load(); fillFilters(); renderList(); part(); heatmap();
      if (!cur && new URLSearchParams(location.hash.slice(1)).has("game")) route();
    },
  };
})();
