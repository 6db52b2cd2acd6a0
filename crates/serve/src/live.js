// arena serve: keeps the report page current. The server sends the run's
// status over Server-Sent Events (_live/events) at each change; when it
// says a newer page was rendered, this fetches it (_live/page, the page
// `arena report` writes) and swaps its sections, header and game data into
// this one, then has the report's script list the games again: no reload,
// and an open game stays open.
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
  function swap(doc) {
    const main = document.querySelector("main"), fresh = doc.querySelector("main");
    if (!main || !fresh || !window.arenaReport) { location.reload(); return; }
    document.title = doc.title;
    document.querySelector("header").replaceWith(document.adoptNode(doc.querySelector("header")));
    for (const section of [...fresh.querySelectorAll(":scope > section")]) {
      if (section.id === "list") continue;
      const old = document.getElementById(section.id);
      if (old) old.replaceWith(document.adoptNode(section));
      else document.getElementById("list").before(document.adoptNode(section));
    }
    for (const id of ["page-data", "game-lines"]) {
      document.getElementById(id).textContent = doc.getElementById(id).textContent;
    }
    window.arenaReport.reload();
  }
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      while (wanted > shown) {
        const target = wanted;
        const answer = await fetch("_live/page", { cache: "no-store" });
        if (!answer.ok) break;
        swap(new DOMParser().parseFromString(await answer.text(), "text/html"));
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
  bar.querySelector("button.projector").addEventListener("click", () => {
    document.body.classList.toggle("projector");
  });
  if (new URLSearchParams(location.search).has("projector")) document.body.classList.add("projector");
})();
