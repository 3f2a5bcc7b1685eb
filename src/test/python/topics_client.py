"""Python `websockets` clients for WSJava's topics interop test.

Usage: python3 topics_client.py ws://127.0.0.1:PORT/
Opens three connections to a server that subscribes on "sub T" and unsubscribes on "unsub T"
(answering "ok sub T" / "ok unsub T"): the first subscribes to a, the second to a and b and then
leaves b, the third to b. Each says "ready" when done; the test then publishes. Each checks that
exactly its topics' messages arrive, in order, with their type (text or binary) and content,
up to its topic's "end" marker. Prints a summary and exits non-zero on any difference.
"""
import asyncio
import sys

import websockets

BIG_TEXT = ("ListPlot[{1, 2, 3}]; " * 5000)[:100000]
BIG_BINARY = bytes(i % 251 for i in range(70000))
EXPECT_A = ["to a", bytes(range(256)), "emoji \U0001F600 \u00e9", BIG_TEXT, BIG_BINARY, "end a"]
EXPECT_B = ["to b", "end b"]


async def client(url, subscribe, leave, expected):
    async with websockets.connect(url, max_size=None) as ws:
        for verb, topics in (("sub", subscribe), ("unsub", leave)):
            for topic in topics:
                await ws.send("%s %s" % (verb, topic))
                answer = await ws.recv()
                if answer != "ok %s %s" % (verb, topic):
                    return "answer %r to %s %s" % (answer, verb, topic)
        await ws.send("ready")
        got = []
        while len(got) < len(expected):
            got.append(await asyncio.wait_for(ws.recv(), 60))
        for i, (g, e) in enumerate(zip(got, expected)):
            if type(g) is not type(e) or g != e:
                return "message %d: %s of %d, expected %s of %d" % (i, type(g).__name__, len(g), type(e).__name__, len(e))
        return None


async def main(url):
    results = await asyncio.gather(client(url, ["a"], [], EXPECT_A), client(url, ["a", "b"], ["b"], EXPECT_A),
                                   client(url, ["b"], [], EXPECT_B))
    bad = [r for r in results if r is not None]
    for r in bad:
        print("MISMATCH " + r)
    print("python websockets %s topics: ok=%d bad=%d" % (websockets.__version__, len(results) - len(bad), len(bad)))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
