// Node `ws` clients for WSJava's topics interop test.
// Usage: node topics_client.js ws://127.0.0.1:PORT/
// Three connections to a server that subscribes on "sub T" and unsubscribes on "unsub T"
// (answering "ok sub T" / "ok unsub T"): the first subscribes to a, the second to a and b and
// then leaves b, the third to b. Each says "ready"; the test then publishes. Each checks that
// exactly its topics' messages arrive, in order, with their type and content, up to its topic's
// "end" marker. Prints a summary and exits non-zero on any difference.
"use strict";
const WebSocket = require("ws");

const url = process.argv[2];
const BIG_TEXT = "ListPlot[{1, 2, 3}]; ".repeat(5000).slice(0, 100000);
const BIG_BINARY = Buffer.from(Array.from({ length: 70000 }, (_, i) => i % 251));
const EXPECT_A = [["text", "to a"], ["binary", Buffer.from(Array.from({ length: 256 }, (_, i) => i))],
  ["text", "emoji \u{1F600} \u00e9"], ["text", BIG_TEXT], ["binary", BIG_BINARY], ["text", "end a"]];
const EXPECT_B = [["text", "to b"], ["text", "end b"]];

function client(subscribe, leave, expected) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { maxPayload: 0 });
    const commands = subscribe.map(t => `sub ${t}`).concat(leave.map(t => `unsub ${t}`));
    const got = [];
    let answered = 0;
    ws.on("open", () => commands.length ? ws.send(commands[0]) : ws.send("ready"));
    ws.on("message", (data, isBinary) => {
      if (answered < commands.length) {
        const answer = data.toString();
        if (answer !== `ok ${commands[answered]}`) { resolve(`answer ${answer} to ${commands[answered]}`); ws.terminate(); return; }
        answered++;
        ws.send(answered < commands.length ? commands[answered] : "ready");
        return;
      }
      got.push([isBinary ? "binary" : "text", isBinary ? Buffer.from(data) : data.toString()]);
      if (got.length === expected.length) {
        for (let i = 0; i < got.length; i++) {
          const [type, value] = got[i];
          const [etype, evalue] = expected[i];
          const same = type === etype && (type === "binary" ? value.equals(evalue) : value === evalue);
          if (!same) { resolve(`message ${i}: ${type} of ${value.length}, expected ${etype} of ${evalue.length}`); ws.close(); return; }
        }
        resolve(null);
        ws.close();
      }
    });
    ws.on("error", (e) => resolve(`error ${e.message}`));
    setTimeout(() => resolve("timed out"), 60000).unref();
  });
}

Promise.all([client(["a"], [], EXPECT_A), client(["a", "b"], ["b"], EXPECT_A), client(["b"], [], EXPECT_B)]).then((results) => {
  const bad = results.filter(r => r !== null);
  bad.forEach(r => console.log(`MISMATCH ${r}`));
  console.log(`node ws ${require("ws/package.json").version} topics: ok=${results.length - bad.length} bad=${bad.length}`);
  process.exit(bad.length ? 1 : 0);
});
