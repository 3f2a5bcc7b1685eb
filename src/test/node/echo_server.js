// Node `ws` echo server for WSJava's client interop test.
// Usage: node echo_server.js [CERT.pem KEY.pem]
// Serves on a free port of 127.0.0.1 (wss:// when given a certificate and key) with
// perMessageDeflate on, prints "listening PORT" and echoes every message until killed.
"use strict";
const fs = require("fs");
const WebSocket = require("ws");

const [cert, key] = process.argv.slice(2);
const http = cert ? require("https").createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) })
                  : require("http").createServer();
const wss = new WebSocket.Server({ server: http, maxPayload: 0, perMessageDeflate: true });
wss.on("connection", (ws) => ws.on("message", (data, isBinary) => ws.send(data, { binary: isBinary })));
http.listen(0, "127.0.0.1", () => console.log(`listening ${http.address().port}`));
