package wsjava.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.Frame;
import wsjava.protocol.Handshake;
import wsjava.protocol.OpCode;
import wsjava.server.WebSocketConnection;
import wsjava.testing.RawServer;

/**
 * The client against servers that break the rules, one rule per case: the handshake answer is
 * checked whole before any frame is read, and a bad frame fails the connection with the right code.
 * Every frame the client sends is read by the server-role parser, which refuses unmasked frames.
 */
@Timeout(60)
class ClientConformanceTest {

    private static IOException refused(Function<String, String> response, ClientConfig config) throws Exception {
        try (RawServer server = new RawServer(response)) {
            return assertThrows(IOException.class, () -> WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"),
                    new RecordingClientListener(), config));
        }
    }

    private static String accept(String key) {
        return Handshake.acceptKey(key);
    }

    @Test
    void aWrongAcceptKeyIsRefused() throws Exception {
        IOException e = refused(key -> "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + accept("AAAAAAAAAAAAAAAAAAAAAA==") + "\r\n\r\n", new ClientConfig());
        assertTrue(e.getMessage().contains("Sec-WebSocket-Accept"), e.getMessage());
    }

    @Test
    void aMissingUpgradeIsRefused() throws Exception {
        IOException e = refused(key -> "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept(key) + "\r\n\r\n",
                new ClientConfig());
        assertTrue(e.getMessage().contains("Upgrade"), e.getMessage());
    }

    @Test
    void aStatusOtherThan101IsRefusedWithItsStatusLine() throws Exception {
        IOException e = refused(key -> "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", new ClientConfig());
        assertTrue(e.getMessage().contains("403 Forbidden"), e.getMessage());
    }

    @Test
    void anExtensionOrSubprotocolThatWasNotOfferedIsRefused() throws Exception {
        IOException ext = refused(key -> "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept(key)
                + "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n", new ClientConfig().compression(false));
        assertTrue(ext.getMessage().contains("not offered"), ext.getMessage());
        IOException window = refused(key -> "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept(key)
                + "\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=10\r\n\r\n", new ClientConfig());
        assertTrue(window.getMessage().contains("client_max_window_bits"), window.getMessage());
        IOException sub = refused(key -> "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept(key)
                + "\r\nSec-WebSocket-Protocol: other\r\n\r\n", new ClientConfig().addSubprotocol("wl"));
        assertTrue(sub.getMessage().contains("subprotocol other"), sub.getMessage());
    }

    /** Connects to a server that answers correctly, then sends {@code frames}; returns what the client sent back first. */
    private static Frame afterServerSends(byte[] frames, RecordingClientListener heard) throws Exception {
        try (RawServer server = new RawServer(RawServer::goodResponse)) {
            WebSocketConnection c = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"), heard, new ClientConfig());
            assertNotNull(c);
            server.send(frames);
            return server.readFrame();
        }
    }

    private static int code(Frame close) {
        byte[] p = close.payload();
        return p.length < 2 ? 1005 : (p[0] & 0xFF) << 8 | (p[1] & 0xFF);
    }

    @Test
    void aMaskedServerFrameFailsWith1002() throws Exception {
        byte[] masked = new wsjava.protocol.FrameWriter(wsjava.protocol.Role.CLIENT, 1 << 20).frame(OpCode.TEXT, true, new byte[] {'x'}, 0, 1);
        RecordingClientListener heard = new RecordingClientListener();
        Frame reply = afterServerSends(masked, heard);
        assertEquals(OpCode.CLOSE, reply.opcode());
        assertEquals(1002, code(reply));
        assertEquals(1002, heard.awaitClose());
    }

    @Test
    void invalidUtf8FromTheServerFailsWith1007() throws Exception {
        byte[] bad = new wsjava.protocol.FrameWriter(wsjava.protocol.Role.SERVER, 1 << 20).frame(OpCode.TEXT, true, new byte[] {'o', 'k', (byte) 0xC0}, 0, 3);
        RecordingClientListener heard = new RecordingClientListener();
        Frame reply = afterServerSends(bad, heard);
        assertEquals(1007, code(reply));
        assertEquals(1007, heard.awaitClose());
    }

    @Test
    void aCloseWithoutStatusIsAnsweredWith1000AndReportedAs1005() throws Exception {
        byte[] close = new wsjava.protocol.FrameWriter(wsjava.protocol.Role.SERVER, 1 << 20).frame(OpCode.CLOSE, true, new byte[0], 0, 0);
        RecordingClientListener heard = new RecordingClientListener();
        Frame reply = afterServerSends(close, heard);
        assertEquals(OpCode.CLOSE, reply.opcode());
        assertEquals(1000, code(reply));
        assertEquals(1005, heard.awaitClose());
    }

    @Test
    void everyFrameTheClientSendsIsMaskedAndAFragmentedMessageIsJoined() throws Exception {
        RecordingClientListener heard = new RecordingClientListener();
        try (RawServer server = new RawServer(RawServer::goodResponse)) {
            WebSocketConnection c = WebSocketClient.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"), heard, new ClientConfig());
            wsjava.protocol.FrameWriter w = server.writer;
            byte[] a = "frag".getBytes(StandardCharsets.UTF_8);
            byte[] b = "mented".getBytes(StandardCharsets.UTF_8);
            server.send(w.frame(OpCode.TEXT, false, a, 0, a.length));
            server.send(w.frame(OpCode.PING, true, new byte[] {9}, 0, 1));
            server.send(w.frame(OpCode.CONTINUATION, true, b, 0, b.length));
            Frame pong = server.readFrame();      // the server-role parser refuses an unmasked frame
            assertEquals(OpCode.PONG, pong.opcode());
            assertEquals("fragmented", heard.next());
            c.sendText("masked");
            assertEquals("masked", new String(server.readFrame().payload(), StandardCharsets.UTF_8));
            assertTrue(server.requestHead.contains("Sec-WebSocket-Extensions: permessage-deflate\r\n"), server.requestHead);
        }
    }
}
