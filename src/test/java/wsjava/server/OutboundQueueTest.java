package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The outbound queue against a socket that takes a little at a time. */
class OutboundQueueTest {

    /** A socket send buffer with {@code room} bytes free until the test drains it; records what it was offered. */
    private static class TightSocket implements GatheringByteChannel {
        final ByteArrayOutputStream taken = new ByteArrayOutputStream();
        int room;
        long largestOffer;

        TightSocket(int room) {
            this.room = room;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            long offered = 0;
            for (int i = offset; i < offset + length; i++) {
                offered += srcs[i].remaining();
            }
            largestOffer = Math.max(largestOffer, offered);
            long written = 0;
            for (int i = offset; i < offset + length && written < room; i++) {
                int n = (int) Math.min(srcs[i].remaining(), room - written);
                byte[] chunk = new byte[n];
                srcs[i].get(chunk);
                taken.writeBytes(chunk);
                written += n;
            }
            room -= written;
            return written;
        }

        @Override public long write(ByteBuffer[] srcs) { return write(srcs, 0, srcs.length); }
        @Override public int write(ByteBuffer src) { return (int) write(new ByteBuffer[] {src}, 0, 1); }
        @Override public boolean isOpen() { return true; }
        @Override public void close() { }
    }

    @Test
    void aPartialWriteBeforeAnEmptyBufferReturnsInsteadOfSpinning() throws Exception {
        OutboundQueue queue = new OutboundQueue();
        queue.add(new byte[100]);
        queue.addClose(new byte[0]);        // what an HTTP response is followed by
        TightSocket socket = new TightSocket(50);
        long left = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> queue.writeTo(socket, new ByteBuffer[OutboundQueue.MAX_GATHER]),
                "the I/O thread looped forever on a socket that took part of a write");
        assertEquals(50, left);
        socket.room = 1000;
        assertEquals(0, queue.writeTo(socket, new ByteBuffer[OutboundQueue.MAX_GATHER]));
        assertEquals(100, socket.taken.size());
    }

    @Test
    void theBytesWrittenAreWhatTheSocketTookThoughMoreWasQueuedDuringTheWrite() throws Exception {
        OutboundQueue queue = new OutboundQueue();
        queue.add(new byte[3000]);
        TightSocket socket = new TightSocket(1000) {
            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) {
                queue.add(new byte[5000]);          // a worker's message, queued while the I/O thread writes
                return super.write(srcs, offset, length);
            }
        };
        long queuedBefore = queue.queuedBytes();
        long writtenBefore = queue.writtenBytes();
        queue.writeTo(socket, new ByteBuffer[OutboundQueue.MAX_GATHER]);
        assertEquals(1000, queue.writtenBytes() - writtenBefore, "what the socket took");
        assertTrue(queuedBefore - queue.queuedBytes() < 0, "'queued before minus after', which the server counted before, is negative here");
    }

    @Test
    void aLargeMessageIsOfferedInBoundedSlicesAndArrivesWhole() throws Exception {
        byte[] big = new byte[16 * 1024 * 1024];
        new Random(7).nextBytes(big);
        byte[] small = {1, 2, 3};
        OutboundQueue queue = new OutboundQueue();
        queue.add(small);
        queue.add(big);
        queue.add(small);
        TightSocket socket = new TightSocket(200_000);
        ByteBuffer[] gather = new ByteBuffer[OutboundQueue.MAX_GATHER];
        int writes = 0;
        while (queue.queuedBytes() > 0) {
            socket.room = 200_000;          // the peer read what was sent
            queue.writeTo(socket, gather);
            writes++;
        }
        assertTrue(socket.largestOffer <= OutboundQueue.MAX_WRITE_BYTES,
                "one write offered " + socket.largestOffer + " bytes: the JDK would copy all of it to a direct buffer");
        byte[] all = socket.taken.toByteArray();
        assertEquals(big.length + 6, all.length);
        assertTrue(Arrays.equals(big, Arrays.copyOfRange(all, 3, 3 + big.length)), "bytes in order, none lost");
        assertTrue(writes >= big.length / 200_000);
    }

    @Test
    void aSmallFrameWrittenThroughInPartKeepsItsRestAfterTheScratchIsReused() throws Exception {
        for (int size : new int[] {100, 2000}) {     // coalesced, and queued as its own entry
            byte[] frame = new byte[size];
            new Random(size).nextBytes(frame);
            ByteBuffer scratch = ByteBuffer.allocateDirect(4096);
            OutboundQueue queue = new OutboundQueue();
            TightSocket socket = new TightSocket(30);
            assertEquals(30, queue.addWritingFirst(socket, scratch.put(frame).flip()));
            scratch.clear().put(new byte[4096]);     // the loop lays out the next frame in it
            assertEquals(OutboundQueue.BEHIND, queue.addWritingFirst(socket, scratch.clear().put(frame, 0, 10).flip()), "queued behind the rest");
            socket.room = 1 << 20;
            assertEquals(0, queue.writeTo(socket, new ByteBuffer[OutboundQueue.MAX_GATHER]));
            byte[] expected = Arrays.copyOf(frame, size + 10);
            System.arraycopy(frame, 0, expected, size, 10);
            assertTrue(Arrays.equals(expected, socket.taken.toByteArray()), "bytes in order, none lost, none from the reused scratch");
        }
    }

    /**
     * Messages of every kind (coalesced, their own entry, with completions, pongs) against a socket
     * that takes a random amount each time, the queue running dry and filling again: every byte
     * leaves in the order queued, each completion fires once its last byte is taken and not before,
     * and the accounting returns to zero.
     */
    @Test
    void messagesLeaveInOrderAndCompleteOnlyOnceWrittenWhateverTheSocketTakes() throws Exception {
        Random random = new Random(21);
        for (int round = 0; round < 200; round++) {
            OutboundQueue queue = new OutboundQueue();
            TightSocket socket = new TightSocket(0);
            ByteBuffer[] gather = new ByteBuffer[OutboundQueue.MAX_GATHER];
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            List<CompletableFuture<Void>> completions = new ArrayList<>();
            List<Long> completeAt = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int kind = random.nextInt(4);
                byte[] message = new byte[kind == 0 ? 1 + random.nextInt(OutboundQueue.COALESCE_MAX_BYTES)
                        : kind == 3 ? 2 + random.nextInt(100) : 1 + random.nextInt(20_000)];
                random.nextBytes(message);
                if (kind == 3) {
                    queue.addPong(message);     // few enough that none is replaced
                } else if (kind == 2) {
                    CompletableFuture<Void> done = new CompletableFuture<>();
                    queue.add(message, done);
                    completions.add(done);
                    completeAt.add((long) expected.size() + message.length);
                } else {
                    queue.add(message);
                }
                expected.writeBytes(message);
                if (random.nextInt(3) == 0) {
                    socket.room = random.nextInt(30_000);
                    queue.writeTo(socket, gather);
                }
                for (int c = 0; c < completions.size(); c++) {
                    assertEquals(socket.taken.size() >= completeAt.get(c), completions.get(c).isDone(),
                            "completion " + c + " after " + socket.taken.size() + " of " + completeAt.get(c) + " bytes");
                }
            }
            for (int writes = 0; queue.queuedBytes() > 0; writes++) {
                assertTrue(writes < 10_000, "round " + round + ": " + queue.queuedBytes() + " bytes queued that no write takes");
                socket.room = 1 + random.nextInt(30_000);
                queue.writeTo(socket, gather);
            }
            assertTrue(Arrays.equals(expected.toByteArray(), socket.taken.toByteArray()), "round " + round + ": bytes in order, none lost");
            assertTrue(completions.stream().allMatch(CompletableFuture::isDone));
            assertEquals(0, queue.heldBytes());
        }
    }

    /** Past {@link OutboundQueue#PENDING_PONGS} waiting, each new pong takes the last one's place: the first ones and the latest go out. */
    @Test
    void aPingFloodQueuesAtMostTheBoundOfPongsAndTheLatestIsSent() throws Exception {
        OutboundQueue queue = new OutboundQueue();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        int pongs = OutboundQueue.PENDING_PONGS + 5;
        for (int i = 0; i < pongs; i++) {
            byte[] pong = {(byte) 0x8A, 1, (byte) i};
            queue.addPong(pong);
            if (i < OutboundQueue.PENDING_PONGS - 1 || i == pongs - 1) {
                expected.writeBytes(pong);
            }
        }
        assertEquals(expected.size(), queue.queuedBytes());
        TightSocket socket = new TightSocket(1 << 20);
        assertEquals(0, queue.writeTo(socket, new ByteBuffer[OutboundQueue.MAX_GATHER]));
        assertTrue(Arrays.equals(expected.toByteArray(), socket.taken.toByteArray()), "the first pongs, then the latest");
        assertEquals(0, queue.heldBytes());
    }

    /** A message in parts completes with its last part, once, and a discarded queue fails what it still held. */
    @Test
    void aMessageInPartsCompletesOnceWithItsLastByteAndADiscardFailsTheRest() throws Exception {
        OutboundQueue queue = new OutboundQueue();
        AtomicInteger completions = new AtomicInteger();
        CompletableFuture<Void> first = new CompletableFuture<>() {
            @Override
            public boolean complete(Void value) {
                completions.incrementAndGet();
                return super.complete(value);
            }
        };
        queue.add(new ByteBuffer[] {ByteBuffer.wrap(new byte[1000]), ByteBuffer.wrap(new byte[3000])}, first);
        CompletableFuture<Void> second = new CompletableFuture<>();
        CompletableFuture<Void> third = new CompletableFuture<>();
        queue.add(new byte[2000], second);
        queue.add(new byte[2000], third);
        TightSocket socket = new TightSocket(3999);
        ByteBuffer[] gather = new ByteBuffer[OutboundQueue.MAX_GATHER];
        queue.writeTo(socket, gather);
        assertFalse(first.isDone(), "one byte of its last part is still queued");
        socket.room = 1;
        queue.writeTo(socket, gather);
        assertTrue(first.isDone());
        queue.writeTo(socket, gather);     // the socket takes nothing more
        assertEquals(1, completions.get(), "completed once");
        queue.discard();
        assertTrue(second.isCompletedExceptionally() && third.isCompletedExceptionally(), "what was never sent fails");
        assertEquals(0, queue.queuedBytes());
        assertEquals(-1, queue.add(new byte[1]), "a discarded queue takes nothing");
    }

    /** The slow-client rule discards a queue from another thread while the I/O thread is in a write: the count stays true. */
    @Test
    void aQueueDiscardedDuringAWriteCountsNothingNegative() throws Exception {
        OutboundQueue queue = new OutboundQueue();
        queue.add(new byte[5000]);
        TightSocket socket = new TightSocket(1 << 20) {
            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) {
                queue.discard();
                return super.write(srcs, offset, length);
            }
        };
        queue.writeTo(socket, new ByteBuffer[OutboundQueue.MAX_GATHER]);
        assertEquals(0, queue.queuedBytes(), "bytes queued after a discard during the write");
        assertEquals(0, queue.heldBytes());
    }

    /**
     * A compression worker may queue the last message and the close frame right after a write that
     * emptied the queue, before the I/O thread asks whether the connection may end. The queue is
     * finished only once that close frame is written: judged by the earlier write's "nothing left"
     * and "a close frame was queued", the connection ended without its last message and close frame.
     */
    @Test
    void theQueueIsFinishedOnlyOnceTheCloseFrameQueuedAfterAnEmptyingWriteIsWritten() throws Exception {
        OutboundQueue queue = new OutboundQueue();
        TightSocket socket = new TightSocket(1 << 20);
        ByteBuffer[] gather = new ByteBuffer[OutboundQueue.MAX_GATHER];
        queue.add(bytes(3000, 1));
        assertEquals(0, queue.writeTo(socket, gather), "the first message is written whole");

        queue.add(bytes(4000, 2));                   // the worker, between that write and the question
        queue.addClose(new byte[] {(byte) 0x88, 0});
        assertFalse(queue.finished(), "finished with a message and the close frame still queued");

        socket.room = 1000;
        queue.writeTo(socket, gather);
        assertFalse(queue.finished(), "finished with part of the last message unwritten");
        socket.room = 1 << 20;
        assertEquals(0, queue.writeTo(socket, gather));
        assertTrue(queue.finished(), "not finished once the close frame is written");

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(bytes(3000, 1));
        expected.writeBytes(bytes(4000, 2));
        expected.writeBytes(new byte[] {(byte) 0x88, 0});
        assertArrayEquals(expected.toByteArray(), socket.taken.toByteArray());
    }

    /** An HTTP answer ends with an empty close marker: the queue is finished once the answer is written. */
    @Test
    void anAnswerWithItsEmptyEndMarkerIsFinishedOnceWritten() throws Exception {
        OutboundQueue queue = new OutboundQueue();
        TightSocket socket = new TightSocket(10);
        queue.add(bytes(25, 3));
        queue.addClose(new byte[0]);
        ByteBuffer[] gather = new ByteBuffer[OutboundQueue.MAX_GATHER];
        queue.writeTo(socket, gather);
        assertFalse(queue.finished(), "finished with 15 bytes of the answer unwritten");
        socket.room = 100;
        queue.writeTo(socket, gather);
        assertTrue(queue.finished());
        assertArrayEquals(bytes(25, 3), socket.taken.toByteArray());
    }

    private static byte[] bytes(int length, int seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }
}
