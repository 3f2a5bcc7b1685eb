"""Python `websockets` echo server for WSJava's client interop test.

Usage: python3 echo_server.py [CERT.pem KEY.pem]
Serves on a free port of 127.0.0.1 (wss:// when given a certificate and key), with websockets'
default permessage-deflate, prints "listening PORT" and echoes every message until killed.
"""
import asyncio
import ssl
import sys

import websockets


async def echo(ws, path=None):
    async for message in ws:
        await ws.send(message)


async def main():
    tls = None
    if len(sys.argv) == 3:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(sys.argv[1], sys.argv[2])
    async with websockets.serve(echo, "127.0.0.1", 0, max_size=None, ssl=tls) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print("listening %d" % port, flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
