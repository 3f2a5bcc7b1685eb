package wsjava.bench.attack;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a rogue peer of the Redis writes on the fan-out's channels: the fan-out's own envelope
 * (byte 0xF5, version 1, type 1 text or 2 binary, a 16-byte publish id, then the payload; see the
 * fan-out guide), and envelopes a broken or hostile peer would write instead.
 */
final class RogueEnvelopes {

    static final int HEADER_BYTES = 19;
    static final int ID_AT = 3;
    static final int ID_BYTES = 16;
    static final byte TEXT = 1;
    static final byte BINARY = 2;
    private static final byte MARK = (byte) 0xF5;

    private RogueEnvelopes() {
    }

    /** A well-formed envelope with a fresh random id. */
    static byte[] envelope(byte type, byte[] payload) {
        byte[] id = new byte[ID_BYTES];
        ThreadLocalRandom.current().nextBytes(id);
        return envelope(id, type, payload);
    }

    static byte[] envelope(byte[] id, byte type, byte[] payload) {
        return ByteBuffer.allocate(HEADER_BYTES + payload.length).put(MARK).put((byte) 1).put(type).put(id).put(payload).array();
    }

    /** Fan-out channels (prefix "wsjava:") whose rest is no topic a server accepts: empty, not UTF-8, 70,000 characters. */
    static List<byte[]> channelsNamingNoTopic() {
        return List.of("wsjava:".getBytes(StandardCharsets.UTF_8), new byte[] {'w', 's', 'j', 'a', 'v', 'a', ':', (byte) 0xFF},
                ("wsjava:" + "t".repeat(70_000)).getBytes(StandardCharsets.UTF_8));
    }

    /** Envelopes no server writes: cut short, an unknown version or type, text that is not UTF-8, nothing at all. */
    static List<byte[]> malformed() {
        byte[] notUtf8 = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE};
        byte[] wrongVersion = envelope(BINARY, new byte[8]);
        wrongVersion[1] = 9;
        byte[] wrongType = envelope(BINARY, new byte[8]);
        wrongType[2] = 7;
        byte[] cutShort = new byte[] {MARK, 1, BINARY, 1, 2, 3};
        return List.of(new byte[0], new byte[] {MARK}, cutShort, wrongVersion, wrongType, envelope(TEXT, notUtf8), notUtf8,
                envelope(TEXT, new byte[0]));
    }
}
