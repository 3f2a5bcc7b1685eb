package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import wsjava.protocol.OpCode;
import wsjava.server.ServerConfig;
import wsjava.server.WebSocketServer;
import wsjava.testing.RawClient;

/**
 * The queue's one bound ({@link EventQueue#heldAtMost}) holds whatever clients do: connections
 * that open and close against a full queue, and messages already in progress when it fills.
 */
@Timeout(120)
class EventQueueBoundTest {

    private static final int IO_THREADS = 2;

    /**
     * Round 3 found that a full queue still let new connections upgrade, each adding an "Open"
     * with up to its 8 KiB request head, and never read them again, so a client that left was not
     * seen (16,480 connections that opened and closed took the queue to 4x its limit). Now no
     * request head is read while the queue is full, open connections are still read for a close,
     * and the waiting upgrades are served once the kernel drains.
     */
    @Test
    void connectionsThatOpenAndCloseAgainstAFullQueueAddNothingAndLeavingClientsAreSeen() throws Exception {
        long limit = 256 * 1024;
        int maxMessage = 64 * 1024;
        EventQueue queue = new EventQueue(limit);
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(IO_THREADS).maxMessageSize(maxMessage)
                .maxFramePayload(maxMessage).handshakeTimeoutMillis(60_000).allowAnyOrigin(true), queue).start();
        List<RawClient> leavers = new ArrayList<>();
        try (RawClient filler = RawClient.open(server.port())) {
            for (int i = 0; i < 10; i++) {
                leavers.add(RawClient.open(server.port()));
            }
            byte[] text = "f".repeat(60_000).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 6; i++) {
                filler.send(filler.writer.frame(OpCode.TEXT, true, text, 0, text.length));
            }
            waitFor(() -> queue.suspendedConnections() > 0, "the queue filled");
            String origin = "http://" + "o".repeat(6_000) + ".example";
            for (int i = 0; i < 300; i++) {
                try (Socket churn = new Socket("127.0.0.1", server.port())) {
                    churn.getOutputStream().write(RawClient.request("/churn", "Origin: " + origin + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                }
            }
            for (RawClient leaver : leavers) {
                leaver.send(leaver.writer.close(1000, "bye"));
                leaver.close();
            }
            waitFor(() -> server.connectionCount() == 1, "the leaving clients were seen while the queue was full: "
                    + server.connectionCount() + " connections");
            System.out.println("churn against a full queue: queued at most " + queue.peakQueuedBytes() + " bytes; bound "
                    + EventQueue.heldAtMost(limit, IO_THREADS, maxMessage) + " (limit " + limit + ")");
            assertTrue(queue.peakQueuedBytes() <= EventQueue.heldAtMost(limit, IO_THREADS, maxMessage),
                    "held at most " + queue.peakQueuedBytes() + " bytes; the bound is " + EventQueue.heldAtMost(limit, IO_THREADS, maxMessage));

            RawClient waiting = new RawClient(server.port());
            waiting.send(RawClient.request("/late", "").getBytes(StandardCharsets.ISO_8859_1));
            Map<String, Integer> types = new HashMap<>();
            long deadline = System.currentTimeMillis() + 30_000;
            boolean lateOpened = false;
            while (!lateOpened && System.currentTimeMillis() < deadline) {
                String[] batch = queue.poll(100, 50);
                for (int at = 0; at < batch.length; at += EventQueue.FIELDS) {
                    types.merge(batch[at], 1, Integer::sum);
                    lateOpened |= batch[at].equals("Open") && batch[at + 5].equals("/late");
                }
            }
            assertTrue(lateOpened, "an upgrade that waited for room was served once the kernel drained: " + types);
            assertEquals(101, waiting.readResponseHead());
            assertTrue(types.getOrDefault("Close", 0) >= 10, "every leaving client's close is there: " + types);
            waiting.close();
        } finally {
            for (RawClient c : leavers) {
                c.close();
            }
            server.stop();
        }
    }

    /**
     * Round 3: the queue was asked only when a message started, so messages that had all started
     * before it filled all landed in it (6.4x its limit). Now each message reserves room as it
     * grows, completing bytes included, and waits, without losing anything, when there is none.
     */
    @Test
    void messagesInProgressWhenTheQueueFillsStayWithinTheBound() throws Exception {
        long limit = 1 << 20;
        int maxMessage = 512 * 1024;
        EventQueue queue = new EventQueue(limit);
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(IO_THREADS).maxMessageSize(maxMessage)
                .maxFramePayload(maxMessage), queue).start();
        List<RawClient> clients = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        try {
            for (int i = 0; i < 24; i++) {
                clients.add(RawClient.open(server.port()));      // all open first: a full queue makes upgrades wait
            }
            for (int i = 0; i < 24; i++) {
                RawClient c = clients.get(i);
                int size = i % 2 == 0 ? 400_000 : 60_000;
                byte[] text = String.format("%03d", i).concat("m".repeat(size - 3)).getBytes(StandardCharsets.US_ASCII);
                byte[] frame = c.writer.frame(OpCode.TEXT, true, text, 0, text.length);
                frames.add(frame);
                // Half send half their message, half only the frame's header: every message is in progress.
                int first = i % 2 == 0 ? frame.length / 2 : frame.length - text.length;
                c.send(java.util.Arrays.copyOf(frame, first));
            }
            Thread.sleep(500);
            for (int i = 0; i < clients.size(); i++) {
                byte[] frame = frames.get(i);
                int first = i % 2 == 0 ? frame.length / 2 : frame.length - (i % 2 == 0 ? 400_000 : 60_000);
                clients.get(i).send(java.util.Arrays.copyOfRange(frame, first, frame.length));
            }
            Thread.sleep(2_000);
            long bound = EventQueue.heldAtMost(limit, IO_THREADS, maxMessage);
            System.out.println("24 messages in progress: queued at most " + queue.peakQueuedBytes() + " bytes; bound " + bound + " (limit " + limit + ")");
            assertTrue(queue.peakQueuedBytes() <= bound, "held at most " + queue.peakQueuedBytes() + " bytes; the bound is " + bound);

            Map<String, Integer> lengths = new HashMap<>();
            long deadline = System.currentTimeMillis() + 60_000;
            while (lengths.size() < clients.size() && System.currentTimeMillis() < deadline) {
                String[] batch = queue.poll(100, 2);        // a slow kernel
                for (int at = 0; at < batch.length; at += EventQueue.FIELDS) {
                    if (batch[at].equals("Text")) {
                        lengths.put(batch[at + 4].substring(0, 3), batch[at + 4].length());
                    }
                }
            }
            assertEquals(clients.size(), lengths.size(), "every message arrived once the kernel caught up: " + lengths.keySet());
            for (int i = 0; i < clients.size(); i++) {
                assertEquals(i % 2 == 0 ? 400_000 : 60_000, lengths.get(String.format("%03d", i)), "whole");
            }
            assertTrue(queue.peakQueuedBytes() <= bound, "held at most " + queue.peakQueuedBytes() + " bytes; the bound is " + bound);
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            server.stop();
        }
    }

    /**
     * A message whose whole payload comes in one piece after its header grew without asking anyone
     * (it completes at once): 40 such messages, started before the queue filled, each put 120 KB
     * in it. Completing bytes reserve room too now.
     */
    @Test
    void messagesThatCompleteInOnePieceAfterTheQueueFilledStayWithinTheBound() throws Exception {
        long limit = 256 * 1024;
        int maxMessage = 64 * 1024;
        EventQueue queue = new EventQueue(limit);
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).ioThreads(IO_THREADS).maxMessageSize(maxMessage)
                .maxFramePayload(maxMessage), queue).start();
        List<RawClient> clients = new ArrayList<>();
        try (RawClient filler = RawClient.open(server.port())) {
            for (int i = 0; i < 40; i++) {
                clients.add(RawClient.open(server.port()));
            }
            byte[] text = "c".repeat(60_000).getBytes(StandardCharsets.US_ASCII);
            List<byte[]> frames = new ArrayList<>();
            for (RawClient c : clients) {
                byte[] frame = c.writer.frame(OpCode.TEXT, true, text, 0, text.length);
                frames.add(frame);
                c.send(java.util.Arrays.copyOf(frame, frame.length - text.length));     // the header: the message has started
            }
            Thread.sleep(300);
            for (int i = 0; i < 3; i++) {
                filler.send(filler.writer.frame(OpCode.TEXT, true, text, 0, text.length));
            }
            waitFor(() -> queue.suspendedConnections() > 0, "the queue filled");
            for (int i = 0; i < clients.size(); i++) {
                byte[] frame = frames.get(i);
                clients.get(i).send(java.util.Arrays.copyOfRange(frame, frame.length - text.length, frame.length));
            }
            Thread.sleep(1_500);
            long bound = EventQueue.heldAtMost(limit, IO_THREADS, maxMessage);
            System.out.println("40 messages completing in one piece: queued at most " + queue.peakQueuedBytes() + " bytes; bound " + bound);
            assertTrue(queue.peakQueuedBytes() <= bound, "held at most " + queue.peakQueuedBytes() + " bytes; the bound is " + bound);
            int texts = 0;
            long deadline = System.currentTimeMillis() + 60_000;
            while (texts < 43 && System.currentTimeMillis() < deadline) {
                String[] batch = queue.poll(100, 3);
                for (int at = 0; at < batch.length; at += EventQueue.FIELDS) {
                    texts += batch[at].equals("Text") && batch[at + 4].length() == text.length ? 1 : 0;
                }
            }
            assertEquals(43, texts, "every message arrived, whole, once the kernel caught up");
        } finally {
            for (RawClient c : clients) {
                c.close();
            }
            server.stop();
        }
    }

    /** An "Open" carried the whole request's path, query and Origin: each is cut at a fixed length now. */
    @Test
    void anOpenEventCarriesABoundedAmount() throws Exception {
        EventQueue queue = new EventQueue(1 << 20);
        WebSocketServer server = new WebSocketServer(new ServerConfig().port(0).allowAnyOrigin(true), queue).start();
        try (RawClient c = new RawClient(server.port())) {
            String query = "q=" + "x".repeat(3_000);
            assertEquals(101, c.handshake("/p?" + query, "Origin: http://" + "o".repeat(5_000) + "\r\n"));
            String[] batch = queue.poll(5_000, 1);
            assertEquals("Open", batch[0]);
            for (int field = 5; field < EventQueue.FIELDS; field++) {
                assertTrue(batch[field].length() <= QueueRoom.INFO_CHARS, "field " + field + ": " + batch[field].length() + " characters");
            }
            assertTrue(batch[8].startsWith("http://ooo"), "the Origin's start is kept");
        } finally {
            server.stop();
        }
    }

    static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(condition.getAsBoolean(), what);
    }

}
