// WebSocket masking in Node: ws's mask(source, mask, output, offset, length), which uses the
// native bufferutil when it is installed and pure JavaScript when WS_NO_BUFFER_UTIL is set.
// Usage: node mask_node.js OUTDIR SIZE...  (NODE_PATH must reach the ws package)
// Prints "RESULT <impl> <size> <median ns>" and writes OUTDIR/<impl>-<size>.bin.
"use strict";
const fs = require("fs");
const path = require("path");
// ws's package "exports" hide lib/, so load the file by its resolved path.
const { mask } = require(path.join(path.dirname(require.resolve("ws")), "lib", "buffer-util.js"));

let impl = "node-ws-js";
if (!process.env.WS_NO_BUFFER_UTIL) {
  try {
    require("bufferutil");
    impl = "node-ws-bufferutil";
  } catch (e) {
    console.log("SKIP node-ws-bufferutil " + e.message.split("\n")[0]);
    process.exit(0);
  }
}

const key = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
const outdir = process.argv[2];
for (const arg of process.argv.slice(3)) {
  const size = Number(arg);
  const input = Buffer.alloc(size);
  for (let i = 0; i < size; i++) input[i] = (i * 131 + 7) & 0xff;
  const output = Buffer.alloc(size);
  const reps = Math.max(5, Math.min(2000, Math.floor((32 << 20) / size)));
  for (let r = 0; r < Math.floor(reps / 5) + 1; r++) mask(input, key, output, 0, size);
  const times = [];
  for (let r = 0; r < reps; r++) {
    const t = process.hrtime.bigint();
    mask(input, key, output, 0, size);
    times.push(Number(process.hrtime.bigint() - t));
  }
  times.sort((a, b) => a - b);
  console.log(`RESULT ${impl} ${size} ${times[Math.floor(reps / 2)]}`);
  fs.writeFileSync(path.join(outdir, `${impl}-${size}.bin`), output);
}
