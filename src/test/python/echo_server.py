"""Python `websockets` echo server for WSJava's client interop test.

Usage: python3 echo_server.py [--port P] [CERT.pem KEY.pem]
Serves on a free port of 127.0.0.1 (or P: the reconnect test starts it again on the same port;
wss:// when given a certificate and key), with websockets' default permessage-deflate, prints
"listening PORT" and echoes every message until killed.
"""
import asyncio
import ssl
import sys

import websockets


async def echo(ws, path=None):
    async for message in ws:
        await ws.send(message)


async def main():
    args = sys.argv[1:]
    port = 0
    if args[:1] == ["--port"]:
        port = int(args[1])
        args = args[2:]
    tls = None
    if len(args) == 2:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args[0], args[1])
    async with websockets.serve(echo, "127.0.0.1", port, max_size=None, ssl=tls) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print("listening %d" % port, flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
