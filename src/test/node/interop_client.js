// Node `ws` client for WSJava's interop test.
// Usage: node interop_client.js deflate|plain|tls ws://127.0.0.1:PORT/ (or wss://localhost:PORT/)
// Sends text and binary messages from 0 B to 16 MiB, whole and fragmented, checks each echo,
// prints a summary and exits non-zero on any failure. With "deflate" it offers permessage-deflate
// (ws's perMessageDeflate: true) and checks that it was agreed; "tls" is "deflate" over wss://,
// trusting the certificate in the file WSJAVA_TEST_CA names.
"use strict";
const crypto = require("crypto");
const WebSocket = require("ws");

const SIZES = [0, 1, 125, 126, 127, 65535, 65536, 1 << 20, 16 << 20];
const mode = process.argv[2];
const url = process.argv[3];
const WL_TEXT = "Graphics[{Hue[0.61], Disk[{0.5, 0.5}, 0.25], Line[{{0, 0}, {1, 1}}]}, ImageSize -> 300]; ";

function cases() {
  const list = [1, 100, 10000].map(k => ({ name: `WL text ${WL_TEXT.length * k} B`, data: WL_TEXT.repeat(k), binary: false }));
  for (const n of SIZES) {
    list.push({ name: `text ${n} B`, data: "ü".repeat(n >> 1) + "x".repeat(n & 1), binary: false });
    list.push({ name: `binary ${n} B`, data: crypto.randomBytes(n), binary: true });
  }
  for (const [n, frag] of [[10000, 1000], [1 << 20, 65536], [16 << 20, 1 << 20]]) {
    list.push({ name: `fragmented binary ${n} B in ${frag} B frames`, data: crypto.randomBytes(n), binary: true, frag });
    list.push({ name: `fragmented text ${n} B in ${frag} B frames`, data: "abcd".repeat(n / 4), binary: false, frag });
  }
  return list;
}

function sendFragmented(ws, c) {
  const buf = c.binary ? c.data : Buffer.from(c.data, "utf8");
  for (let at = 0; at < buf.length; at += c.frag) {
    const part = buf.subarray(at, Math.min(buf.length, at + c.frag));
    ws.send(part, { binary: c.binary, fin: at + c.frag >= buf.length });
  }
}

const tls = url.startsWith("wss:") ? { ca: require("fs").readFileSync(process.env.WSJAVA_TEST_CA) } : {};
const ws = new WebSocket(url, { maxPayload: 0, perMessageDeflate: mode !== "plain", ...tls });
const todo = cases();
let ok = 0, bad = 0, current = null;

function next() {
  current = todo.shift();
  if (!current) {
    ws.ping(Buffer.from("interop"));
    return;
  }
  if (current.frag) sendFragmented(ws, current);
  else ws.send(current.data, { binary: current.binary });
}

ws.on("open", () => {
  console.log(`extensions=${ws.extensions}`);
  if ((mode !== "plain") !== ws.extensions.startsWith("permessage-deflate")) {
    bad++;
    console.log(`extensions "${ws.extensions}" do not fit mode ${mode}`);
  }
  next();
});
ws.on("message", (data, isBinary) => {
  const same = isBinary === current.binary &&
    (isBinary ? Buffer.compare(data, current.data) === 0 : data.toString("utf8") === current.data);
  if (same) ok++; else { bad++; console.log(`MISMATCH ${current.name}: got ${data.length} bytes, binary=${isBinary}`); }
  next();
});
ws.on("pong", (data) => {
  if (data.toString() === "interop") ok++; else bad++;
  ws.close(1000, "done");
});
ws.on("close", (code) => {
  if (code !== 1000) { bad++; console.log(`close code ${code}, expected 1000`); }
  console.log(`node ws ${require("ws/package.json").version} interop: ok=${ok} bad=${bad}`);
  process.exit(bad === 0 && todo.length === 0 ? 0 : 1);
});
ws.on("error", (e) => { console.log("error: " + e.message); process.exit(1); });
setTimeout(() => { console.log("timeout"); process.exit(1); }, 120000);
