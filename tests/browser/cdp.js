// Drives headless Chromium over the DevTools protocol (--remote-debugging-pipe:
// NUL-terminated JSON on fds 3 and 4, no npm package) for tests/report/browser.rs.
//
// usage: node cdp.js CHROMIUM PROFILE_DIR URL STEPS_JSON
// STEPS_JSON is an array of {"eval": EXPR} (its value is returned),
// {"key": "ArrowRight"} (a key press), {"screenshot": FILE, "width": W,
// "height": H} and {"remove": FILE} (deletes a file, e.g. a test bot's gate). Prints {"errors": [...], "results": [...]}: errors are every
// uncaught exception, console.error/assert and browser log error seen.
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

const KEY_CODES = { ArrowLeft: 37, ArrowRight: 39, Home: 36, End: 35, Escape: 27 };

async function main() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId: targetId, flatten: true });
  for (const domain of ["Runtime", "Log", "Page"]) await send(domain + ".enable", {}, sessionId);
  const loaded = nextEvent("Page.loadEventFired");
  await send("Page.navigate", { url: url }, sessionId);
  await loaded;
  const results = [];
  for (const step of steps) {
    if (step.eval !== undefined) {
      const r = await send("Runtime.evaluate", { expression: step.eval, returnByValue: true, awaitPromise: true }, sessionId);
      if (r.exceptionDetails) errors.push("step " + JSON.stringify(step.eval) + ": " + r.exceptionDetails.exception.description);
      results.push(r.result.value === undefined ? null : r.result.value);
    } else if (step.key !== undefined) {
      const key = { key: step.key, code: step.key, windowsVirtualKeyCode: KEY_CODES[step.key] };
      await send("Input.dispatchKeyEvent", Object.assign({ type: "keyDown" }, key), sessionId);
      await send("Input.dispatchKeyEvent", Object.assign({ type: "keyUp" }, key), sessionId);
      results.push(null);
    } else if (step.remove !== undefined) {
      fs.rmSync(step.remove, { force: true });
      results.push(null);
    } else if (step.screenshot !== undefined) {
      await send("Emulation.setDeviceMetricsOverride",
        { width: step.width, height: step.height, deviceScaleFactor: 1, mobile: false }, sessionId);
      const shot = await send("Page.captureScreenshot", { format: "png" }, sessionId);
      fs.writeFileSync(step.screenshot, Buffer.from(shot.data, "base64"));
      results.push(null);
    }
  }
  process.stdout.write(JSON.stringify({ errors: errors, results: results }) + "\n");
  await send("Browser.close").catch(() => {});
}

const timer = setTimeout(() => {
  process.stderr.write("cdp.js: no answer from Chromium within 60 s\n");
  child.kill("SIGKILL");
  process.exit(2);
}, 60000);
main().then(() => { clearTimeout(timer); }, (e) => {
  process.stderr.write("cdp.js: " + e.message + "\n");
  child.kill("SIGKILL");
  process.exit(1);
});
child.on("exit", () => { clearTimeout(timer); });
