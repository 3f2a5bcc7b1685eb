"""Python `websockets` clients for the fan-out test of `./wsjava serve --redis`.

Usage: python3 fanout_clients.py URL_A URL_B TOPIC
URL_A and URL_B are two servers (ws://127.0.0.1:PORT/) that fan out through one Redis. One client
connects to each at /topics/TOPIC, as examples/topic.html does: that subscribes it, and what it
sends is published to the topic on every server. The servers subscribe to Redis in the background,
so each client first sends probes until the other client hears one. Then each publishes COUNT
messages (text and binary) and an end marker. Each client must get every message of both, once
each, in each sender's order, and nothing more in the second after both end markers.
Prints a summary; exits non-zero on any difference.
"""
import asyncio
import sys

import websockets

COUNT = 20
READY_SECONDS = 30
QUIET_SECONDS = 1.0


def message(side, i):
    return ("%s %d" % (side, i)) if i % 2 == 0 else ("%s %d" % (side, i)).encode()


EXPECTED = [message(side, i) for side in ("a", "b") for i in range(COUNT)] + ["end a", "end b"]


def is_probe(m):
    return isinstance(m, str) and m.startswith("probe ")


async def hear_probe_from(ws, sender, deadline):
    """Reads until a probe of `sender` arrives; false at the deadline."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        try:
            m = await asyncio.wait_for(ws.recv(), max(0.01, deadline - loop.time()))
        except asyncio.TimeoutError:
            return False
        if isinstance(m, str) and m.startswith("probe %s " % sender):
            return True
    return False


async def probe_until_heard(sender_ws, sender, listener_ws):
    """Publishes probes from `sender` every 100 ms until `listener_ws` hears one."""
    deadline = asyncio.get_running_loop().time() + READY_SECONDS
    heard = asyncio.ensure_future(hear_probe_from(listener_ws, sender, deadline))
    i = 0
    while not heard.done():
        await sender_ws.send("probe %s %d" % (sender, i))
        i += 1
        await asyncio.wait([heard], timeout=0.1)
    return heard.result()


async def collect(ws):
    """Every message but probes, up to both end markers and then a quiet second."""
    got = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not ("end a" in got and "end b" in got) and loop.time() < deadline:
        try:
            m = await asyncio.wait_for(ws.recv(), deadline - loop.time())
        except asyncio.TimeoutError:
            break
        if not is_probe(m):
            got.append(m)
    quiet_until = loop.time() + QUIET_SECONDS
    while loop.time() < quiet_until:
        try:
            m = await asyncio.wait_for(ws.recv(), quiet_until - loop.time())
        except asyncio.TimeoutError:
            break
        if not is_probe(m):
            got.append(m)
    return got


def check(name, got):
    """None when `got` holds each expected message once, in each sender's order; else the difference."""
    for m in EXPECTED:
        n = got.count(m)
        if n != 1:
            return "client %s got %r %d times (%d messages in all)" % (name, m, n, len(got))
    if len(got) != len(EXPECTED):
        extra = [m for m in got if m not in EXPECTED]
        return "client %s got %d unexpected messages, first %r" % (name, len(extra), extra[:1])
    for side in ("a", "b"):
        sent = [message(side, i) for i in range(COUNT)]
        if [m for m in got if m in sent] != sent:
            return "client %s got %s's messages out of order" % (name, side)
    return None


async def main(url_a, url_b, topic):
    async with websockets.connect(url_a + "topics/" + topic, max_size=None) as ws_a, \
            websockets.connect(url_b + "topics/" + topic, max_size=None) as ws_b:
        if not await probe_until_heard(ws_a, "a", ws_b):
            print("MISMATCH no probe from server A reached the client on B in %d s" % READY_SECONDS)
            return 1
        if not await probe_until_heard(ws_b, "b", ws_a):
            print("MISMATCH no probe from server B reached the client on A in %d s" % READY_SECONDS)
            return 1
        got_a = asyncio.ensure_future(collect(ws_a))
        got_b = asyncio.ensure_future(collect(ws_b))
        for i in range(COUNT):
            await ws_a.send(message("a", i))
            await ws_b.send(message("b", i))
        await ws_a.send("end a")
        await ws_b.send("end b")
        results = {"a": await got_a, "b": await got_b}
    bad = [r for r in (check(name, got) for name, got in results.items()) if r is not None]
    for r in bad:
        print("MISMATCH " + r)
    print("python websockets %s fan-out: client a got %d, client b got %d, expected %d each; bad=%d"
          % (websockets.__version__, len(results["a"]), len(results["b"]), len(EXPECTED), len(bad)))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3])))
