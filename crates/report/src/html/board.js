// arena: a board as every page draws it (the report's viewer, the live page
// of `arena serve`, the play page). How a variant's board looks comes from
// the rules engine as data (look.rs, BoardLook: size, each cell's
// colour-group letter, the first move's cells (marked on the empty board),
// the legend); what is on it
// comes as one content code per cell (moves.rs: `0` empty, `1`..`3` a white
// stack of that height, `4`..`6` a black one; a Qango disc is a stack of 1).
// This script applies no rules.
"use strict";
window.arenaBoard = (function () {
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // The notation's name of cell index i (row * cols + col): a1, b1, ...
  function cellName(i, cols) { return String.fromCharCode(97 + (i % cols)) + (Math.floor(i / cols) + 1); }
  // The class of a layout letter: c-R ... c-X, c-star, c-dot.
  function kindClass(letter) { return "c-" + (letter === "*" ? "star" : letter === "." ? "dot" : letter); }
  // What a content code shows: "." empty, "w1".."w3", "b1".."b3".
  function content(code) { return code === 0 ? "." : (code <= 3 ? "w" + code : "b" + (code - 3)); }

  // Whether `look`'s variant keeps the first move off some cell of its board.
  function restrictsFirst(look) {
    return [...look.letters].some((letter, i) => letter !== " " && look.first[i] !== "+");
  }

  // The board of `look` with `codes` (a string or array, one code a cell),
  // coordinates on top and left. `marks`: `last` and `opening` (Sets of
  // cell indices: the last move's cells, the cells the opening placed),
  // `win` (a Set of cell names), `first` (true before the first move: the
  // cells it may go on are marked, where the variant restricts it), `cls`
  // (more classes of the table).
  function table(look, codes, marks) {
    marks = marks || {};
    const rows = look.rows, cols = look.cols, quinque = look.family === "quinque";
    const first = marks.first === true && restrictsFirst(look);
    const t = el("table", { class: "board" + (marks.cls ? " " + marks.cls : "") });
    const head = el("tr");
    head.appendChild(el("th"));
    for (let c = 0; c < cols; c++) head.appendChild(el("th", {}, String.fromCharCode(97 + c)));
    t.appendChild(head);
    for (let r = 0; r < rows; r++) {
      const tr = el("tr");
      tr.appendChild(el("th", {}, String(r + 1)));
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c, letter = look.letters[i];
        if (letter === " ") { tr.appendChild(el("td", { class: "off" })); continue; }
        const name = cellName(i, cols), code = +(codes[i] || 0), shown = content(code);
        const cls = [kindClass(letter)];
        if (marks.last && marks.last.has(i)) cls.push("last");
        if (code && marks.opening && marks.opening.has(i)) cls.push("op");
        if (marks.win && marks.win.has(name)) cls.push("win");
        if (first && !code && look.first[i] === "+") cls.push("first");
        const td = el("td", { class: cls.join(" "), "data-cell": name, "data-content": shown, title: name });
        if (code) td.appendChild(el("span", { class: "disc " + shown[0] }, quinque ? shown.slice(1) : ""));
        tr.appendChild(td);
      }
      t.appendChild(tr);
    }
    return t;
  }

  // The legend of `look` into `box`: its kinds of cell, the discs, the marks.
  function legend(box, look, opening) {
    box.textContent = "";
    const item = (swatch, text, kind) => {
      const it = el("span", { class: "item", "data-kind": kind });
      it.appendChild(swatch);
      it.appendChild(document.createTextNode(" " + text));
      box.appendChild(it);
    };
    const cell = (cls, inner) => {
      const s = el("span", { class: "swatch " + cls });
      if (inner) s.appendChild(inner);
      return s;
    };
    look.legend.forEach(([letter, text]) => item(cell(kindClass(letter)), text, letter));
    const quinque = look.family === "quinque";
    item(cell("c-dot", el("span", { class: "disc w" }, quinque ? "1" : "")), quinque ? "white stack (its height)" : "white disc", "white");
    item(cell("c-dot", el("span", { class: "disc b" }, quinque ? "1" : "")), quinque ? "black stack (its height)" : "black disc", "black");
    item(cell("c-dot last"), "last move", "last");
    item(cell("c-dot win", el("span", { class: "disc w" })), "winning cells", "win");
    if (opening) item(cell("c-dot op", el("span", { class: "disc w" })), "placed in the opening (not by the bot)", "opening");
    if (restrictsFirst(look)) item(cell("c-dot first"), "where the first move may go", "first");
  }

  return { table: table, legend: legend, cellName: cellName };
})();
