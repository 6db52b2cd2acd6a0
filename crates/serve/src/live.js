// arena serve: keeps the report page current. The server sends the run's
// status over Server-Sent Events (_live/events) at each change; when it
// says a newer page was rendered, this fetches it (_live/page, the page
// `arena report` writes) and swaps its sections, header and game data into
// this one, then has the report's script list the games again: no reload,
// and an open game stays open. Inside a tournament (`--serve`) it also
// sends the games being played (`games` events, at each move at most every
// 250 ms): they are drawn above the report, a board per game as the
// report's viewer draws it (board.js, the page's: coordinates, colour
// groups, Quinque's stacks with their heights, the last move and the
// opening's stones marked), large in the projector view. A league's page
// (its leaderboard on top) is kept current the same way; the folds a
// reader opened stay open.
"use strict";
(function () {
  const bar = document.getElementById("live");
  const progress = bar.querySelector(".progress"), state = bar.querySelector(".state");
  let shown = +bar.dataset.version, wanted = shown, busy = false;

  function duration(s) {
    if (s < 90) return Math.round(s) + " s";
    if (s < 5400) return Math.round(s / 60) + " min";
    return (s / 3600).toFixed(1) + " h";
  }
  function text(s) {
    let t = s.games + (s.planned !== null ? " of " + s.planned : "") + " games";
    if (s.planned !== null && s.games >= s.planned) return t + " · finished";
    if (s.per_minute !== null) t += " · " + s.per_minute.toFixed(1) + " games/min";
    if (s.eta_seconds !== null) t += " · about " + duration(s.eta_seconds) + " left";
    return t;
  }
  const lines = (root) => root.getElementById("game-lines").textContent.split("\n").filter((l) => l.length > 0);
  // The game lines this page keeps (its first `from`, their bots renamed
  // from the old page's order to the new's) and those of `doc`.
  function gameLines(doc, from) {
    const before = JSON.parse(document.getElementById("page-data").textContent);
    const after = JSON.parse(doc.getElementById("page-data").textContent);
    const F = {};
    after.fields.forEach((name, i) => { F[name] = i; });
    const place = before.bots.map((name) => after.bots.indexOf(name));
    const kept = lines(document).slice(0, from).map((line) => {
      const f = line.split("\t");
      f[F.white] = String(place[+f[F.white]]);
      f[F.black] = String(place[+f[F.black]]);
      return f.join("\t");
    });
    return kept.concat(lines(doc));
  }
  // What the reader opened in a section stays open in its newer version:
  // its folds (details with an id, e.g. a league's every version) and
  // where its scrolled boxes were.
  function keepOpen(old, fresh) {
    for (const d of old.querySelectorAll("details[id]")) {
      const now = fresh.querySelector("details#" + CSS.escape(d.id));
      if (now) now.open = d.open;
    }
    for (const box of old.querySelectorAll("[id]")) {
      const top = box.scrollTop;
      const now = top > 0 ? fresh.querySelector("#" + CSS.escape(box.id)) : null;
      if (now) requestAnimationFrame(() => { now.scrollTop = top; });
    }
  }
  function swap(doc, from) {
    const main = document.querySelector("main"), fresh = doc.querySelector("main");
    if (!main || !fresh || !window.arenaReport) { location.reload(); return; }
    const games = gameLines(doc, from);
    document.title = doc.title;
    document.querySelector("header").replaceWith(document.adoptNode(doc.querySelector("header")));
    for (const section of [...fresh.querySelectorAll(":scope > section")]) {
      if (section.id === "list") continue;
      const old = document.getElementById(section.id);
      if (old) keepOpen(old, section);
      // A section drawn the same is left as it is: a click or a scroll in
      // it is never lost to an update that changed nothing there.
      if (old && old.outerHTML === section.outerHTML) continue;
      if (old) old.replaceWith(document.adoptNode(section));
      else document.getElementById("list").before(document.adoptNode(section));
    }
    document.getElementById("page-data").textContent = doc.getElementById("page-data").textContent;
    document.getElementById("game-lines").textContent = "\n" + games.map((l) => l + "\n").join("");
    window.arenaReport.reload();
  }
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      while (wanted > shown) {
        const target = wanted;
        const have = document.getElementById("game-lines") ? lines(document).length : 0;
        const answer = await fetch("_live/update?from=" + have, { cache: "no-store" });
        if (!answer.ok) break;
        const from = +(answer.headers.get("x-arena-from") || 0);
        swap(new DOMParser().parseFromString(await answer.text(), "text/html"), from);
        shown = target;
        bar.dataset.version = String(shown);
      }
    } catch (e) {
      state.textContent = "could not fetch the page: " + e;
    } finally {
      busy = false;
    }
  }
  const events = new EventSource("_live/events");
  events.addEventListener("status", (e) => {
    const s = JSON.parse(e.data);
    progress.textContent = text(s);
    state.textContent = s.error ? "cannot read the run: " + s.error : "";
    bar.classList.remove("lost");
    if (s.version > wanted) wanted = s.version;
    refresh();
  });
  events.addEventListener("error", () => {
    bar.classList.add("lost");
    state.textContent = "connection to arena serve lost; retrying";
  });
  // ---- games being played ----
  const playing = document.createElement("section");
  playing.id = "playing";
  playing.hidden = true;
  bar.after(playing);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // The board of a game being played: the position the server replayed
  // (`g.board`), drawn by the page's board.js from the variant's look in
  // the page data; null when either is missing (no report page yet).
  function board(g) {
    const data = document.getElementById("page-data");
    if (!g.board || !window.arenaBoard || !data) return null;
    const look = (JSON.parse(data.textContent).variants || {})[g.game];
    if (!look) return null;
    return window.arenaBoard.table(look, g.board.codes,
      { last: new Set(g.board.last), opening: new Set(g.board.opening), cls: "small live-board" });
  }
  function showPlaying(p) {
    playing.textContent = "";
    playing.hidden = !p.live || p.games.length === 0;
    if (playing.hidden) return;
    playing.appendChild(el("h2", "", "Games in progress"));
    const grid = el("div", "live-games");
    for (const g of p.games) {
      const card = el("div", "live-game");
      card.dataset.game = g.game_id;
      card.appendChild(el("h3", "", g.game_id + ": " + g.white + " – " + g.black));
      const next = g.moves.length % 2 === 0 ? g.white + " (white)" : g.black + " (black)";
      card.appendChild(el("p", "", g.game + " · ply " + g.moves.length + " · " + next + " to move"));
      const drawn = board(g);
      if (drawn) card.appendChild(drawn);
      card.appendChild(el("p", "moves", g.moves.join(" ")));
      grid.appendChild(card);
    }
    playing.appendChild(grid);
  }
  events.addEventListener("games", (e) => showPlaying(JSON.parse(e.data)));
  bar.querySelector("button.projector").addEventListener("click", () => {
    document.body.classList.toggle("projector");
  });
  if (new URLSearchParams(location.search).has("projector")) document.body.classList.add("projector");
})();
