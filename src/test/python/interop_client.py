"""Python `websockets` client for WSJava's interop test.

Usage: python3 interop_client.py deflate|plain|tls ws://127.0.0.1:PORT/ (or wss://localhost:PORT/)
Sends text and binary messages from 0 B to 16 MiB, whole and fragmented, and checks that each
echo is identical. With "deflate" the client offers permessage-deflate as websockets does by
default and checks that it was agreed; with "plain" it offers nothing; "tls" is "deflate" over
wss://, trusting the certificate in the file WSJAVA_TEST_CA names. Prints one line per failure
and a summary; exits non-zero on any failure.
"""
import asyncio
import os
import ssl
import sys

import websockets

SIZES = [0, 1, 125, 126, 127, 65535, 65536, 1 << 20, 16 << 20]


def chunks(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)] or [data[:0]]


WL_TEXT = "Graphics[{Hue[0.61], Disk[{0.5, 0.5}, 0.25], Line[{{0, 0}, {1, 1}}]}, ImageSize -> 300]; "


async def main(mode, url):
    ok = bad = 0
    tls = None
    if url.startswith("wss:"):
        tls = ssl.create_default_context(cafile=os.environ["WSJAVA_TEST_CA"])
    compression = None if mode == "plain" else "deflate"
    async with websockets.connect(url, max_size=None, compression=compression, ssl=tls) as ws:
        agreed = ws.response_headers.get("Sec-WebSocket-Extensions", "")
        print("extensions=%s" % agreed)
        if (mode != "plain") != agreed.startswith("permessage-deflate"):
            bad += 1
            print("extensions %r do not fit mode %s" % (agreed, mode))
        cases = [("WL text %d B" % (len(WL_TEXT) * k), WL_TEXT * k, None) for k in (1, 100, 10000)]
        for n in SIZES:
            text = ("é" * (n // 2)) + ("x" * (n % 2))   # n bytes of UTF-8, multi-byte characters included
            cases.append(("text %d B" % n, text, None))
            cases.append(("binary %d B" % n, os.urandom(n), None))
        for n, frag in [(10_000, 1000), (1 << 20, 65536), (16 << 20, 1 << 20)]:
            cases.append(("fragmented binary %d B in %d B frames" % (n, frag), os.urandom(n), frag))
            cases.append(("fragmented text %d B in %d B frames" % (n, frag), "abcd" * (n // 4), frag))
        for name, payload, frag in cases:
            if frag is None:
                await ws.send(payload)
            else:
                await ws.send(chunks(payload, frag))   # an iterable is sent as one fragmented message
            echo = await ws.recv()
            if type(echo) is type(payload) and echo == payload:
                ok += 1
            else:
                bad += 1
                print("MISMATCH %s: got %s of %d" % (name, type(echo).__name__, len(echo)))
        pong = await ws.ping(b"interop")
        await asyncio.wait_for(pong, 5)
        ok += 1
        await ws.close(1000, "done")
        if ws.close_code != 1000:
            bad += 1
            print("close code %s, expected 1000" % ws.close_code)
    print("python websockets %s interop: ok=%d bad=%d" % (websockets.__version__, ok, bad))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
