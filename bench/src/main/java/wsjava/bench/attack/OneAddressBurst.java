package wsjava.bench.attack;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A reconnect storm behind a reverse proxy or a NAT: thousands of complete upgrade requests from
 * one address, all sent before any answer is read. Each one is a good client: every one must be
 * upgraded (the handshake limiter may push out only sockets that keep the server waiting).
 */
final class OneAddressBurst extends Attack {

    private static final byte[] REQUEST = ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(new byte[16]) + "\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    private static final int THREADS = 4;
    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicLong sent = new AtomicLong();
    private int total;
    private int upgraded;

    @Override
    String name() {
        return "one-address-burst";
    }

    @Override
    String description(Scale scale) {
        return scale.count(10_000, 1_000) + " complete upgrade requests from 127.0.0.1, from " + THREADS
                + " threads, all sent before any answer is read; every one must be upgraded";
    }

    @Override
    void launch(ServerUnderTest server, Scale scale) throws Exception {
        total = scale.count(10_000, 1_000);
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int share = total / THREADS + (t < total % THREADS ? 1 : 0);
            Thread sender = new Thread(() -> send(server.port, share), "burst");
            sender.start();
            senders.add(sender);
        }
        for (Thread t : senders) {
            t.join();
        }
        List<Socket> all;
        synchronized (sockets) {
            all = new ArrayList<>(sockets);
        }
        for (Socket s : all) {
            if (status(s) == 101) {
                upgraded++;
            }
        }
    }

    private void send(int port, int count) {
        for (int i = 0; i < count; i++) {
            try {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                s.getOutputStream().write(REQUEST);
                sent.addAndGet(REQUEST.length);
                synchronized (sockets) {
                    sockets.add(s);
                }
            } catch (IOException e) {
                // not connected: counted as not upgraded
            }
        }
    }

    /** The answer's status code, or -1 when the server closed without one. */
    private static int status(Socket s) {
        try {
            s.setSoTimeout(30_000);
            InputStream in = s.getInputStream();
            byte[] line = new byte[12];
            for (int i = 0; i < line.length; i++) {
                int b = in.read();
                if (b < 0) {
                    return -1;
                }
                line[i] = (byte) b;
            }
            return Integer.parseInt(new String(line, 9, 3, StandardCharsets.US_ASCII));
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    @Override
    long bytesSent() {
        return sent.get();
    }

    @Override
    String detail() {
        return upgraded + "/" + total + " upgraded";
    }

    @Override
    List<String> check(AttackRow row, Scale scale) {
        List<String> problems = super.check(row, scale);
        if (upgraded != total) {
            problems.add("only " + upgraded + " of " + total + " complete handshakes from one address upgraded");
        }
        return problems;
    }

    @Override
    public void close() {
        synchronized (sockets) {
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // leaving anyway
                }
            }
            sockets.clear();
        }
    }
}
