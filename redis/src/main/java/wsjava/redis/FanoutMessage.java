package wsjava.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import wsjava.protocol.Utf8Validator;

/**
 * A publish as it travels through Redis: the topic is the channel ({@code prefix + topic}), the
 * Redis message is the payload behind a 19-byte header saying whether it is text or binary, and
 * an id of this publish, so that the server that published it can skip its own copy when Redis
 * hands it back (its subscribers had it at once; see {@link OwnPublishes}).
 * <pre>
 *   byte 0      0xF5 (never in UTF-8: a header, not text)
 *   byte 1      1 (version)
 *   byte 2      1 text (UTF-8), 2 binary
 *   bytes 3-18  128 random bits, new for each publish
 *   bytes 19-   the payload
 * </pre>
 * A message published by another program (redis-cli, any client) has no header: it is delivered
 * as text when it is valid UTF-8, else as binary, as if from another server.
 */
final class FanoutMessage {

    static final int HEADER_BYTES = 19;
    static final int ID_AT = 3;
    static final int ID_BYTES = 16;
    private static final byte MARK = (byte) 0xF5;
    private static final byte VERSION = 1;
    private static final byte TEXT = 1;
    private static final byte BINARY = 2;

    final boolean text;
    final byte[] payload;
    /** The publish's id, or null for a message from another program. */
    final byte[] origin;

    private FanoutMessage(boolean text, byte[] payload, byte[] origin) {
        this.text = text;
        this.payload = payload;
        this.origin = origin;
    }

    static byte[] encode(byte[] origin, boolean text, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + payload.length);
        b.put(MARK).put(VERSION).put(text ? TEXT : BINARY).put(origin).put(payload);
        return b.array();
    }

    static FanoutMessage decode(byte[] message) {
        if (hasHeader(message)) {
            return new FanoutMessage(message[2] == TEXT, Arrays.copyOfRange(message, HEADER_BYTES, message.length),
                    Arrays.copyOfRange(message, 3, HEADER_BYTES));
        }
        return new FanoutMessage(Utf8Validator.isValid(message, 0, message.length), message, null);
    }

    /** Whether {@code message} has a fan-out header (and so an id at {@link #ID_AT}). */
    static boolean hasHeader(byte[] message) {
        return message.length >= HEADER_BYTES && message[0] == MARK && message[1] == VERSION && (message[2] == TEXT || message[2] == BINARY);
    }

    String textPayload() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
