package wsjava.bench.tls;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;

/**
 * A closed-loop wss:// echo client, one blocking thread per connection over the JDK's SSLSocket:
 * each connection keeps one binary message in flight, masked once in advance, and compares every
 * echo with what it sent.
 */
final class TlsEchoClient {

    /** What a run measured. */
    static final class Result {
        long messages;
        long mismatches;
        String error = "";
    }

    private TlsEchoClient() {
    }

    static Result run(SSLContext tls, int port, int connections, int size, double warmupSeconds, double measureSeconds) throws Exception {
        byte[] payload = new byte[size];
        new Random(size).nextBytes(payload);
        byte[] frame = new FrameWriter(Role.CLIENT, Integer.MAX_VALUE - 64, new Random(1)).frame(OpCode.BINARY, true, payload, 0, size);
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong echoed = new AtomicLong();
        AtomicLong mismatches = new AtomicLong();
        Result result = new Result();
        List<Socket> sockets = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                Socket s = tls.getSocketFactory().createSocket("127.0.0.1", port);
                sockets.add(s);
                upgrade(s, port);
                Thread t = new Thread(() -> loop(s, frame, payload, measuring, stop, echoed, mismatches, result), "tls-client");
                t.setDaemon(true);
                threads.add(t);
            }
            threads.forEach(Thread::start);
            Thread.sleep((long) (warmupSeconds * 1000));
            measuring.set(true);
            Thread.sleep((long) (measureSeconds * 1000));
            measuring.set(false);
            result.messages = echoed.get();
            result.mismatches = mismatches.get();
        } finally {
            stop.set(true);
            for (Socket s : sockets) {
                s.close();
            }
            for (Thread t : threads) {
                t.join(5_000);
            }
        }
        return result;
    }

    private static void upgrade(Socket s, int port) throws IOException {
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        String request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = s.getInputStream().read();
            if (b < 0) {
                throw new IOException("closed during the handshake");
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("refused: " + head.toString().lines().findFirst().orElse(""));
        }
    }

    private static void loop(Socket s, byte[] frame, byte[] payload, AtomicBoolean measuring, AtomicBoolean stop,
                             AtomicLong echoed, AtomicLong mismatches, Result result) {
        byte[] echo = new byte[payload.length];
        try {
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            while (!stop.get()) {
                out.write(frame);
                out.flush();
                int b0 = in.readUnsignedByte();
                int b1 = in.readUnsignedByte();
                long length = b1 & 0x7F;
                if (length == 126) {
                    length = in.readUnsignedShort();
                } else if (length == 127) {
                    length = in.readLong();
                }
                if (length != payload.length || (b0 & 0x0F) != OpCode.BINARY) {
                    throw new IOException("unexpected frame: opcode " + (b0 & 0x0F) + ", " + length + " bytes");
                }
                in.readFully(echo);
                if (measuring.get()) {
                    echoed.incrementAndGet();
                    if (!Arrays.equals(echo, payload)) {
                        mismatches.incrementAndGet();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!stop.get()) {
                result.error = e.toString();
            }
        }
    }
}
