// Node `ws` echo server for WSJava's client interop test.
// Usage: node echo_server.js [--port P] [CERT.pem KEY.pem]
// Serves on a free port of 127.0.0.1 (or P: the reconnect test starts it again on the same port;
// wss:// when given a certificate and key) with perMessageDeflate on, prints "listening PORT" and
// echoes every message until killed.
"use strict";
const fs = require("fs");
const WebSocket = require("ws");

let args = process.argv.slice(2);
let port = 0;
if (args[0] === "--port") {
  port = Number(args[1]);
  args = args.slice(2);
}
const [cert, key] = args;
const http = cert ? require("https").createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) })
                  : require("http").createServer();
const wss = new WebSocket.Server({ server: http, maxPayload: 0, perMessageDeflate: true });
wss.on("connection", (ws) => ws.on("message", (data, isBinary) => ws.send(data, { binary: isBinary })));
http.listen(port, "127.0.0.1", () => console.log(`listening ${http.address().port}`));
