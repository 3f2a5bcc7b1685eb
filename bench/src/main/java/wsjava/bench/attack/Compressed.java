package wsjava.bench.attack;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.Deflater;

/**
 * Payloads for compressed-message attacks, as a permessage-deflate client would send them (raw
 * DEFLATE, sync flush, the {@code 00 00 ff ff} tail removed): ASCII text (so valid as a text
 * message too) that inflates {@code ratio} times or so. A random letter every so many bytes sets the
 * ratio; a run of one letter is a bomb (about 1,000 times).
 */
final class Compressed {

    private static final Map<String, byte[]> MADE = new ConcurrentHashMap<>();

    private Compressed() {
    }

    /** Text of {@code size} bytes that compresses a little more than {@code ratio} times (found by bisection, then cached). */
    static byte[] withRatio(int size, double ratio) {
        return MADE.computeIfAbsent(size + "@" + ratio, k -> search(size, ratio));
    }

    /** {@code size} bytes of one letter: the most DEFLATE can inflate per byte. */
    static byte[] bomb(int size) {
        return MADE.computeIfAbsent(size + "@bomb", k -> {
            byte[] text = new byte[size];
            Arrays.fill(text, (byte) 'a');
            return deflate(text);
        });
    }

    static double ratioOf(int size, byte[] compressed) {
        return (double) size / compressed.length;
    }

    /** Finds the spacing on a 1 MiB sample (the ratio hardly depends on the length), then compresses the whole once. */
    private static byte[] search(int size, double ratio) {
        int sample = Math.min(size, 1 << 20);
        int low = 1;
        int high = 8192;
        while (low < high) {
            int every = (low + high) / 2;
            if (ratioOf(sample, deflate(text(sample, every))) > ratio) {
                high = every;
            } else {
                low = every + 1;
            }
        }
        return deflate(text(size, high));     // the most randomness that still compresses more than ratio times
    }

    /** 'a' with a random letter every {@code every} bytes. */
    private static byte[] text(int size, int every) {
        Random random = new Random(size + every);
        byte[] text = new byte[size];
        Arrays.fill(text, (byte) 'a');
        for (int i = 0; i < size; i += every) {
            text[i] = (byte) ('a' + random.nextInt(26));
        }
        return text;
    }

    static byte[] deflate(byte[] data) {
        Deflater deflater = new Deflater(9, true);
        deflater.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 64 + 64);
        byte[] chunk = new byte[64 * 1024];
        int n;
        do {
            n = deflater.deflate(chunk, 0, chunk.length, Deflater.SYNC_FLUSH);
            out.write(chunk, 0, n);
        } while (n == chunk.length);
        deflater.end();
        byte[] z = out.toByteArray();
        return Arrays.copyOf(z, z.length - 4);     // the sync flush's 00 00 ff ff, which permessage-deflate leaves out
    }
}
