// Drives headless Chromium over the DevTools protocol (--remote-debugging-pipe:
// NUL-terminated JSON on fds 3 and 4, no npm package) for the page tests
// (tests/report/browser.rs, serve_browser.rs, play_browser.rs).
//
// usage: node cdp.js CHROMIUM PROFILE_DIR URL STEPS_JSON
// STEPS_JSON is an array of steps, each giving one result:
// - {"eval": EXPR}: its value (a promise is awaited);
// - {"key": KEY}: a key press (ArrowRight, Tab, Enter, " " (Space), Escape, ...);
// - {"click": SELECTOR}: a mouse click at the middle of the first element
//   matching SELECTOR (scrolled into view); true, or false when none matched;
// - {"click_at": EXPR}: the same on the selector EXPR evaluates to (none: false);
// - {"wait": EXPR, "timeout": MS}: polls EXPR (every 20 ms) until it is truthy;
//   its value, or null and an error after MS (default 20000); a poll cut by a
//   navigation under way is asked again of the new page;
// - {"repeat": [STEPS], "until": EXPR, "max": N}: runs STEPS until EXPR is
//   truthy (asked before each round), at most N rounds (an error past them);
//   the number of rounds run (the inner steps' results are not kept);
// - {"ax": true}: Chromium's accessibility tree, the nodes it does not ignore,
//   each {role, name, disabled} (what a screen reader is told);
// - {"screenshot": FILE, "width": W, "height": H}, {"remove": FILE} (deletes a
//   file, e.g. a test bot's gate): null.
// Prints {"errors": [...], "results": [...]}: errors are every uncaught
// exception, console.error/assert and browser log error seen, and every step
// that failed. The whole session has 60 s, or the env's CDP_TIMEOUT_MS.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");

const [chrome, profile, url, stepsJson] = process.argv.slice(2);
const steps = JSON.parse(stepsJson);
const child = spawn(chrome, [
  "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank",
], { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
const toBrowser = child.stdio[3], fromBrowser = child.stdio[4];

const errors = [];
const pending = new Map();
const eventWaiters = [];
let nextId = 0;
let buffer = "";

fromBrowser.on("data", (chunk) => {
  buffer += chunk.toString("utf8");
  let end;
  while ((end = buffer.indexOf("\0")) >= 0) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    receive(message);
  }
});

function receive(m) {
  if (m.id !== undefined && pending.has(m.id)) {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message));
    else p.resolve(m.result);
    return;
  }
  const params = m.params || {};
  if (m.method === "Runtime.exceptionThrown") {
    const d = params.exceptionDetails;
    errors.push("uncaught: " + ((d.exception && d.exception.description) || d.text));
  } else if (m.method === "Runtime.consoleAPICalled" && (params.type === "error" || params.type === "assert")) {
    errors.push("console." + params.type + ": " + params.args.map((a) => a.value !== undefined ? a.value : a.description).join(" "));
  } else if (m.method === "Log.entryAdded" && params.entry.level === "error") {
    errors.push("log: " + params.entry.text + (params.entry.url ? " (" + params.entry.url + ")" : ""));
  }
  for (let i = eventWaiters.length - 1; i >= 0; i--) {
    if (eventWaiters[i].method === m.method) eventWaiters.splice(i, 1)[0].resolve(params);
  }
}

function send(method, params, sessionId) {
  return new Promise((resolve, reject) => {
    const message = { id: ++nextId, method: method, params: params || {} };
    if (sessionId) message.sessionId = sessionId;
    pending.set(message.id, { resolve: resolve, reject: reject });
    toBrowser.write(JSON.stringify(message) + "\0");
  });
}

function nextEvent(method) {
  return new Promise((resolve) => eventWaiters.push({ method: method, resolve: resolve }));
}

// Key presses as Chromium's own input sends them: `text` types, others are raw.
const KEYS = {
  ArrowLeft: { code: "ArrowLeft", keyCode: 37 }, ArrowRight: { code: "ArrowRight", keyCode: 39 },
  ArrowUp: { code: "ArrowUp", keyCode: 38 }, ArrowDown: { code: "ArrowDown", keyCode: 40 },
  Home: { code: "Home", keyCode: 36 }, End: { code: "End", keyCode: 35 }, Escape: { code: "Escape", keyCode: 27 },
  Tab: { code: "Tab", keyCode: 9 }, Enter: { code: "Enter", keyCode: 13, text: "\r" },
  " ": { code: "Space", keyCode: 32, text: " " },
};

async function evaluate(expression, sessionId) {
  const r = await send("Runtime.evaluate", { expression: expression, returnByValue: true, awaitPromise: true }, sessionId);
  if (r.exceptionDetails) {
    const d = r.exceptionDetails;
    throw new Error("step " + JSON.stringify(expression) + ": " + ((d.exception && d.exception.description) || d.text));
  }
  return r.result.value === undefined ? null : r.result.value;
}

async function press(name, sessionId) {
  const k = KEYS[name] || { code: name, keyCode: 0 };
  const key = { key: name, code: k.code, windowsVirtualKeyCode: k.keyCode, nativeVirtualKeyCode: k.keyCode };
  const down = k.text ? { type: "keyDown", text: k.text, unmodifiedText: k.text } : { type: "rawKeyDown" };
  await send("Input.dispatchKeyEvent", Object.assign(down, key), sessionId);
  await send("Input.dispatchKeyEvent", Object.assign({ type: "keyUp" }, key), sessionId);
}

// A mouse click in the middle of `selector`'s element: false when there is none.
async function click(selector, sessionId) {
  if (typeof selector !== "string" || selector === "") return false;
  const box = await evaluate("(() => { const e = document.querySelector(" + JSON.stringify(selector) + "); if (!e) return null;" +
    " e.scrollIntoView({ block: 'center', inline: 'center' }); const r = e.getBoundingClientRect();" +
    " return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()", sessionId);
  if (!box) return false;
  const at = { x: box.x, y: box.y, button: "left", clickCount: 1 };
  await send("Input.dispatchMouseEvent", Object.assign({ type: "mouseMoved" }, at), sessionId);
  await send("Input.dispatchMouseEvent", Object.assign({ type: "mousePressed" }, at), sessionId);
  await send("Input.dispatchMouseEvent", Object.assign({ type: "mouseReleased" }, at), sessionId);
  return true;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const NAVIGATING = /navigated or closed|context was destroyed|Cannot find context/;

async function wait(expression, timeout, sessionId) {
  const end = Date.now() + (timeout || 20000);
  for (;;) {
    let value = null;
    try {
      value = await evaluate(expression, sessionId);
    } catch (e) {
      // A navigation under way ends the evaluation: the next poll asks the new page.
      if (!NAVIGATING.test(e.message)) throw e;
    }
    if (value) return value;
    if (Date.now() > end) {
      errors.push("wait: " + JSON.stringify(expression) + " still false after " + (timeout || 20000) + " ms");
      return null;
    }
    await sleep(20);
  }
}

// Runs one step: its result.
async function run(step, sessionId) {
  if (step.eval !== undefined) return evaluate(step.eval, sessionId);
  if (step.key !== undefined) { await press(step.key, sessionId); return null; }
  if (step.click !== undefined) return click(step.click, sessionId);
  if (step.click_at !== undefined) return click(await evaluate(step.click_at, sessionId), sessionId);
  if (step.wait !== undefined) return wait(step.wait, step.timeout, sessionId);
  if (step.repeat !== undefined) {
    let rounds = 0;
    while (!(await evaluate(step.until, sessionId))) {
      if (rounds >= step.max) {
        errors.push("repeat: " + JSON.stringify(step.until) + " still false after " + rounds + " rounds");
        break;
      }
      for (const inner of step.repeat) await run(inner, sessionId);
      rounds++;
    }
    return rounds;
  }
  if (step.ax !== undefined) {
    const { nodes } = await send("Accessibility.getFullAXTree", {}, sessionId);
    return nodes.filter((n) => !n.ignored).map((n) => ({
      role: n.role ? n.role.value : null, name: n.name ? n.name.value : null,
      disabled: (n.properties || []).some((p) => p.name === "disabled" && p.value.value === true),
    }));
  }
  if (step.remove !== undefined) { fs.rmSync(step.remove, { force: true }); return null; }
  if (step.screenshot !== undefined) {
    await send("Emulation.setDeviceMetricsOverride",
      { width: step.width, height: step.height, deviceScaleFactor: 1, mobile: false }, sessionId);
    const shot = await send("Page.captureScreenshot", { format: "png" }, sessionId);
    fs.writeFileSync(step.screenshot, Buffer.from(shot.data, "base64"));
    return null;
  }
  throw new Error("unknown step " + JSON.stringify(step));
}

async function main() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId: targetId, flatten: true });
  for (const domain of ["Runtime", "Log", "Page"]) await send(domain + ".enable", {}, sessionId);
  const loaded = nextEvent("Page.loadEventFired");
  await send("Page.navigate", { url: url }, sessionId);
  await loaded;
  const results = [];
  for (const step of steps) {
    try {
      results.push(await run(step, sessionId));
    } catch (e) {
      errors.push(e.message);
      results.push(null);
    }
  }
  process.stdout.write(JSON.stringify({ errors: errors, results: results }) + "\n");
  await send("Browser.close").catch(() => {});
}

const LIMIT_MS = +(process.env.CDP_TIMEOUT_MS || 60000);
const timer = setTimeout(() => {
  process.stderr.write("cdp.js: not done within " + LIMIT_MS + " ms (errors so far: " + JSON.stringify(errors) + ")\n");
  child.kill("SIGKILL");
  process.exit(2);
}, LIMIT_MS);
main().then(() => { clearTimeout(timer); }, (e) => {
  process.stderr.write("cdp.js: " + e.message + "\n");
  child.kill("SIGKILL");
  process.exit(1);
});
child.on("exit", () => { clearTimeout(timer); });
