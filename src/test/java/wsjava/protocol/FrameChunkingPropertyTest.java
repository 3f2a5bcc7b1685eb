package wsjava.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Any split of a valid byte stream gives the same frames as the unsplit stream. */
class FrameChunkingPropertyTest {

    @Test
    void anySplitGivesTheSameFrames() {
        Random random = new Random(42);
        for (int trial = 0; trial < 300; trial++) {
            FrameWriter writer = new FrameWriter(Role.CLIENT, 1 + random.nextInt(300), new Random(trial));
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            int messages = 1 + random.nextInt(6);
            for (int m = 0; m < messages; m++) {
                byte[] payload = new byte[random.nextInt(random.nextBoolean() ? 130 : 70_000)];
                random.nextBytes(payload);
                stream.writeBytes(writer.binary(payload));
                if (random.nextBoolean()) {
                    stream.writeBytes(writer.control(OpCode.PING, new byte[random.nextInt(126)]));
                }
            }
            byte[] bytes = stream.toByteArray();
            List<Frame> whole = parseInChunks(bytes.clone(), new int[] {bytes.length});
            int[] cuts = randomCuts(random, bytes.length);
            List<Frame> chunked = parseInChunks(bytes.clone(), cuts);
            assertSameFrames(whole, chunked);
        }
    }

    /** A server reads into a direct buffer and unmasks there; a read-only buffer is unmasked into a copy. */
    @Test
    void directAndReadOnlyInputGiveTheSameFramesAsHeapInput() {
        Random random = new Random(7);
        for (int trial = 0; trial < 100; trial++) {
            FrameWriter writer = new FrameWriter(Role.CLIENT, 1 + random.nextInt(5000), new Random(trial));
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            for (int m = 0; m < 1 + random.nextInt(5); m++) {
                byte[] payload = new byte[random.nextInt(40_000)];
                random.nextBytes(payload);
                stream.writeBytes(writer.binary(payload));
            }
            byte[] bytes = stream.toByteArray();
            int[] cuts = randomCuts(random, bytes.length);
            List<Frame> heap = parseInChunks(bytes.clone(), cuts);
            assertSameFrames(heap, parseInChunks(bytes, cuts, Input.DIRECT));
            assertSameFrames(heap, parseInChunks(bytes, cuts, Input.READ_ONLY));
        }
    }

    private enum Input { DIRECT, READ_ONLY }

    private static List<Frame> parseInChunks(byte[] bytes, int[] sizes, Input kind) {
        FrameParser parser = new FrameParser(Role.SERVER, 1 << 20);
        FrameCollector frames = new FrameCollector();
        int at = 0;
        for (int n : sizes) {
            ByteBuffer chunk = kind == Input.DIRECT ? ByteBuffer.allocateDirect(n).put(bytes, at, n).flip()
                    : ByteBuffer.wrap(bytes, at, n).asReadOnlyBuffer();
            parser.parse(chunk, frames);
            assertEquals(0, chunk.remaining(), "the parser consumes all it is given");
            at += n;
        }
        return frames.drain();
    }

    @Test
    void oneByteAtATimeGivesTheSameFrames() {
        FrameWriter writer = new FrameWriter(Role.CLIENT, 50, new Random(1));
        byte[] payload = new byte[1000];
        new Random(2).nextBytes(payload);
        byte[] bytes = writer.binary(payload);
        int[] ones = new int[bytes.length];
        java.util.Arrays.fill(ones, 1);
        assertSameFrames(parseInChunks(bytes.clone(), new int[] {bytes.length}), parseInChunks(bytes.clone(), ones));
    }

    private static int[] randomCuts(Random random, int length) {
        List<Integer> sizes = new ArrayList<>();
        int left = length;
        while (left > 0) {
            int n = Math.min(left, 1 + random.nextInt(random.nextBoolean() ? 16 : 3000));
            sizes.add(n);
            left -= n;
        }
        return sizes.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<Frame> parseInChunks(byte[] bytes, int[] sizes) {
        FrameParser parser = new FrameParser(Role.SERVER, 1 << 20);
        FrameCollector frames = new FrameCollector();
        int at = 0;
        for (int n : sizes) {
            parser.parse(ByteBuffer.wrap(bytes, at, n), frames);
            at += n;
        }
        return frames.drain();
    }

    private static void assertSameFrames(List<Frame> expected, List<Frame> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).opcode(), actual.get(i).opcode());
            assertEquals(expected.get(i).fin(), actual.get(i).fin());
            assertArrayEquals(expected.get(i).payload(), actual.get(i).payload());
        }
    }
}
