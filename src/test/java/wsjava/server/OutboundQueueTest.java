package wsjava.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The outbound queue against a socket that takes a little at a time. */
class OutboundQueueTest {

    /** A socket send buffer with {@code room} bytes free until the test drains it; records what it was offered. */
    private static final class TightSocket implements GatheringByteChannel {
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
            assertEquals(0, queue.addWritingFirst(socket, scratch.clear().put(frame, 0, 10).flip()), "queued behind the rest");
            socket.room = 1 << 20;
            assertEquals(0, queue.writeTo(socket, new ByteBuffer[OutboundQueue.MAX_GATHER]));
            byte[] expected = Arrays.copyOf(frame, size + 10);
            System.arraycopy(frame, 0, expected, size, 10);
            assertTrue(Arrays.equals(expected, socket.taken.toByteArray()), "bytes in order, none lost, none from the reused scratch");
        }
    }
}
