package wsjava.protocol;

import java.nio.ByteBuffer;

/**
 * Incremental UTF-8 validation (RFC 3629): feed bytes in any pieces and it fails at the first byte
 * that cannot start or continue a well-formed sequence, so bad text is rejected as soon as it
 * arrives rather than at the end of a message. Rejects overlong forms, surrogates (U+D800-DFFF),
 * code points above U+10FFFF, stray continuation bytes, and (at {@link #finish}) truncated sequences.
 */
public final class Utf8Validator {

    /** Continuation bytes still expected for the current sequence. */
    private int pending;
    /** Allowed range of the next continuation byte: narrower than 80-BF right after E0, ED, F0, F4. */
    private int nextMin = 0x80;
    private int nextMax = 0xBF;

    /** Checks {@code buf[off, off+len)}; throws {@link BadPayloadException} at the first invalid byte. */
    public void feed(byte[] buf, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            if (pending == 0) {
                // ASCII runs are the common case in WL and JSON text: skip them a byte at a time cheaply.
                while (i < end && buf[i] >= 0) {
                    i++;
                }
                if (i == end) {
                    return;
                }
                startSequence(buf[i] & 0xFF);
            } else {
                int b = buf[i] & 0xFF;
                if (b < nextMin || b > nextMax) {
                    throw new BadPayloadException("invalid UTF-8: unexpected byte 0x" + Integer.toHexString(b));
                }
                nextMin = 0x80;
                nextMax = 0xBF;
                pending--;
            }
            i++;
        }
    }

    private void startSequence(int b) {
        if (b >= 0xC2 && b <= 0xDF) {
            pending = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            pending = 2;
            if (b == 0xE0) {
                nextMin = 0xA0;           // below is overlong
            } else if (b == 0xED) {
                nextMax = 0x9F;           // above is a surrogate
            }
        } else if (b >= 0xF0 && b <= 0xF4) {
            pending = 3;
            if (b == 0xF0) {
                nextMin = 0x90;           // below is overlong
            } else if (b == 0xF4) {
                nextMax = 0x8F;           // above is past U+10FFFF
            }
        } else {
            throw new BadPayloadException("invalid UTF-8: byte 0x" + Integer.toHexString(b) + " cannot start a character");
        }
    }

    /** Feeds the next {@code len} bytes of {@code bytes} (moving its position), a step at a time: for input that is not kept. */
    public void feed(ByteBuffer bytes, int len) {
        byte[] step = new byte[Math.min(len, 4096)];
        for (int left = len; left > 0; left -= step.length) {
            int n = Math.min(left, step.length);
            bytes.get(step, 0, n);
            feed(step, 0, n);
        }
    }

    /** Whether the bytes so far end on a character boundary. */
    public boolean isComplete() {
        return pending == 0;
    }

    /** Ends the text: throws if it stopped inside a character. Resets for the next message. */
    public void finish() {
        boolean complete = pending == 0;
        reset();
        if (!complete) {
            throw new BadPayloadException("invalid UTF-8: text ends inside a character");
        }
    }

    public void reset() {
        pending = 0;
        nextMin = 0x80;
        nextMax = 0xBF;
    }

    /** Validates a whole byte range at once. */
    public static boolean isValid(byte[] buf, int off, int len) {
        Utf8Validator v = new Utf8Validator();
        try {
            v.feed(buf, off, len);
            return v.isComplete();
        } catch (BadPayloadException e) {
            return false;
        }
    }
}
