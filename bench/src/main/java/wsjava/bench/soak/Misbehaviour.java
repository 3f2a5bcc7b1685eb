package wsjava.bench.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import wsjava.protocol.Frame;
import wsjava.protocol.FrameCollector;
import wsjava.protocol.FrameParser;
import wsjava.protocol.FrameWriter;
import wsjava.protocol.OpCode;
import wsjava.protocol.Role;

/**
 * The ways a hostile or broken client misbehaves, each on its own raw socket. Those with a defined
 * answer (a close code, an HTTP status) report whether the server gave it.
 */
enum Misbehaviour {
    /** Half a frame, then RST. */
    ABRUPT_DISCONNECT_MID_FRAME,
    /** The request head a byte at a time, too slowly to finish. */
    SLOWLORIS_HANDSHAKE,
    /** Sends echoes' worth of data and never reads. */
    NEVER_READS,
    /** Thousands of pings and one-byte fragments. */
    PING_AND_FRAGMENT_FLOOD,
    /** A header claiming a 1 GiB message: must get 1009 without the server allocating it. */
    OVERSIZED_CLAIM,
    /** Text that is not UTF-8: must get 1007. */
    INVALID_UTF8,
    /** Random bytes instead of a request head: must get 400 (or 431). */
    GARBAGE_HANDSHAKE;

    private static final String UPGRADE = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    /** Runs this misbehaviour once; returns false when the server's answer was wrong. */
    boolean run(int port, Random random) throws IOException, InterruptedException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            FrameWriter writer = new FrameWriter(Role.CLIENT, Integer.MAX_VALUE - 64, random);
            switch (this) {
                case SLOWLORIS_HANDSHAKE:
                    for (int i = 0; i < 15; i++) {
                        out.write(UPGRADE.charAt(i));
                        out.flush();
                        Thread.sleep(200);
                    }
                    return true;
                case GARBAGE_HANDSHAKE: {
                    byte[] junk = new byte[1 + random.nextInt(4096)];
                    random.nextBytes(junk);
                    junk[0] = 'X';
                    out.write(junk);
                    out.write("\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    int status = status(in);
                    return status == 400 || status == 431;
                }
                default:
                    break;
            }
            out.write(UPGRADE.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (status(in) != 101) {
                return false;
            }
            switch (this) {
                case ABRUPT_DISCONNECT_MID_FRAME: {
                    byte[] frame = writer.frame(OpCode.BINARY, true, new byte[10_000], 0, 10_000);
                    out.write(frame, 0, 1 + random.nextInt(frame.length - 1));
                    out.flush();
                    socket.setSoLinger(true, 0);
                    return true;
                }
                case NEVER_READS:
                    for (int i = 0; i < 16; i++) {
                        out.write(writer.frame(OpCode.BINARY, true, new byte[64 * 1024], 0, 64 * 1024));
                    }
                    out.flush();
                    Thread.sleep(2_000);
                    return true;
                case PING_AND_FRAGMENT_FLOOD:
                    for (int i = 0; i < 2_000; i++) {
                        out.write(writer.control(OpCode.PING, new byte[] {(byte) i}));
                        out.write(writer.frame(i == 0 ? OpCode.TEXT : OpCode.CONTINUATION, i == 1_999, new byte[] {'f'}, 0, 1));
                    }
                    out.flush();
                    return true;
                case OVERSIZED_CLAIM: {
                    byte[] header = new byte[14];
                    FrameWriter.writeHeader(header, 0, true, OpCode.BINARY, 1L << 30, true, random.nextInt());
                    out.write(header);
                    out.flush();
                    return closeCode(in) == 1009;
                }
                case INVALID_UTF8:
                    out.write(writer.frame(OpCode.TEXT, true, new byte[] {'o', 'k', (byte) 0xC0, (byte) 0xAF}, 0, 4));
                    out.flush();
                    return closeCode(in) == 1007;
                default:
                    throw new IllegalStateException(name());
            }
        }
    }

    private static int status(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        try {
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.append((char) b);
            }
        } catch (SocketTimeoutException e) {
            return -1;
        }
        return head.length() >= 12 && head.toString().startsWith("HTTP/1.1 ") ? Integer.parseInt(head.substring(9, 12)) : -1;
    }

    /** Reads frames until a close frame; its code, or -1. */
    private static int closeCode(InputStream in) throws IOException {
        FrameParser parser = new FrameParser(Role.CLIENT, Integer.MAX_VALUE - 64);
        FrameCollector frames = new FrameCollector();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) > 0) {
                parser.parse(ByteBuffer.wrap(buffer, 0, n), frames);
                List<Frame> got = frames.drain();
                for (Frame f : got) {
                    if (f.opcode() == OpCode.CLOSE && f.payload().length >= 2) {
                        return (f.payload()[0] & 0xFF) << 8 | (f.payload()[1] & 0xFF);
                    }
                }
            }
        } catch (SocketTimeoutException e) {
            return -1;
        }
        return -1;
    }
}
